// A table's `patch` frames: the changes between two `state` frames, applied here
// as the server makes them (realtime/deltas.py, docs/protocol.md). Applying makes
// fresh objects along the changed paths and shares the rest, so the frame a patch
// applies to is left as it was.

const SPLICE = "@";

// A patch that does not fit the frame it is applied to; never shown (the socket
// asks for the whole state instead), so it carries no message.
class PatchError extends Error {}

/**
 * The `state` frame that `patch` stands for, applied to `base` (the state frame
 * numbered `patch.base`), or null if it does not fit `base`.
 */
export function patchApply(base, patch) {
  if (!base || base.seq !== patch.base || !isObject(patch.changes)) return null;
  const { type, seq, events, ...body } = base;
  try {
    return { type: "state", seq: patch.seq, ...applyObject(body, patch.changes), events: patch.events || [] };
  } catch (err) {
    if (err instanceof PatchError) return null;
    throw err;
  }
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function apply(old, change) {
  if (Array.isArray(change)) {
    if (change.length !== 1) throw new PatchError(); // a replacement holds one value
    return change[0];
  }
  if (!isObject(change)) throw new PatchError(); // a change is an array or an object
  if (isObject(old)) return applyObject(old, change);
  if (Array.isArray(old)) return SPLICE in change ? applySplice(old, change) : applyElements(old, change);
  throw new PatchError(); // changes in place need an object or an array
}

function applyObject(old, changes) {
  const out = { ...old };
  for (const [key, change] of Object.entries(changes)) {
    const there = Object.prototype.hasOwnProperty.call(out, key);
    if (Array.isArray(change) && change.length === 0) {
      if (!there) throw new PatchError(); // removing a key that is not there
      delete out[key];
    } else if (isObject(change)) {
      if (!there) throw new PatchError(); // changing a key that is not there
      out[key] = apply(out[key], change);
    } else {
      out[key] = apply(null, change);
    }
  }
  return out;
}

function isIndex(value) {
  return Number.isInteger(value) && value >= 0;
}

function applySplice(old, changes) {
  const splice = changes[SPLICE];
  if (Object.keys(changes).length !== 1 || !Array.isArray(splice) || splice.length < 2) {
    throw new PatchError(); // a splice is [at, removed, ...inserted] alone
  }
  const [at, removed, ...inserted] = splice;
  if (!isIndex(at) || !isIndex(removed) || at + removed > old.length) throw new PatchError(); // a splice outside the array
  return [...old.slice(0, at), ...inserted, ...old.slice(at + removed)];
}

function applyElements(old, changes) {
  const out = old.slice();
  for (const [key, change] of Object.entries(changes)) {
    if (!/^[0-9]+$/.test(key) || Number(key) >= out.length) throw new PatchError(); // an element change needs an index in the array
    if (Array.isArray(change) && change.length === 0) throw new PatchError(); // an element cannot be removed in place
    out[Number(key)] = apply(out[Number(key)], change);
  }
  return out;
}
