// Optional sounds, made with Web Audio (no files): a click when a tile is played, a
// chime when it becomes your turn, and a bell for an invitation (on every page).
// Nothing sounds before the player's first interaction with the page; the toggle's
// choice is remembered in localStorage, so every page follows it.

const KEY = "dominoes.sound";

export class Sounds {
  constructor() {
    this.context = null;
    this.unlocked = false;
    const unlock = () => {
      this.unlocked = true;
      window.removeEventListener("pointerdown", unlock, true);
      window.removeEventListener("keydown", unlock, true);
    };
    window.addEventListener("pointerdown", unlock, true);
    window.addEventListener("keydown", unlock, true);
  }

  get enabled() {
    try {
      return window.localStorage.getItem(KEY) !== "off";
    } catch {
      return true;
    }
  }

  set enabled(on) {
    try {
      window.localStorage.setItem(KEY, on ? "on" : "off");
    } catch {
      // Private mode without storage: the choice lasts for this page only.
    }
  }

  audio() {
    if (!this.unlocked || !this.enabled) return null;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!this.context) this.context = new Context();
    if (this.context.state === "suspended") this.context.resume();
    return this.context;
  }

  tone(frequency, start, length, gain) {
    const ctx = this.audio();
    if (!ctx) return;
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.frequency.value = frequency;
    const t = ctx.currentTime + start;
    amp.gain.setValueAtTime(gain, t);
    amp.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(amp).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length);
  }

  click() {
    this.tone(1800, 0, 0.05, 0.15);
  }

  chime() {
    this.tone(660, 0, 0.25, 0.12);
    this.tone(990, 0.12, 0.35, 0.1);
  }

  bell() {
    this.tone(880, 0, 0.4, 0.12);
    this.tone(1320, 0.18, 0.5, 0.1);
    this.tone(880, 0.36, 0.6, 0.08);
  }
}

/** Wire the page's toggle button (labels come translated from the template). */
export function soundToggle(button, sounds) {
  if (!button) return;
  const show = () => {
    const on = sounds.enabled;
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? button.dataset.on : button.dataset.off;
  };
  button.addEventListener("click", () => {
    sounds.enabled = !sounds.enabled;
    show();
  });
  show();
}
