// Keeps the "N players online" line live over /ws/presence/, reconnecting on loss.
const el = document.getElementById("online");
if (el) {
  let delay = 1000;
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}${el.dataset.presenceUrl}`);
    let timer;
    const show = (n) => { el.textContent = `${n} ${n === 1 ? "player" : "players"} online`; };
    ws.onopen = () => { delay = 1000; ws.send('{"type":"ping"}'); timer = setInterval(() => ws.send('{"type":"ping"}'), 60000); };
    ws.onmessage = (e) => { const m = JSON.parse(e.data); if ("online" in m) show(m.online); };
    ws.onclose = (e) => { clearInterval(timer); if (e.code === 4401) return; setTimeout(connect, delay); delay = Math.min(delay * 2, 30000); };
  };
  connect();
}
