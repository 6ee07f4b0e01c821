// side-channel's API (what qs uses) on the WeakMap and Map every browser the build targets has,
// without the intrinsics lookup and object-inspect it carries for old engines.
module.exports = function getSideChannel() {
  const objects = new WeakMap();
  const primitives = new Map();
  const store = (key) => (key !== null && (typeof key === 'object' || typeof key === 'function') ? objects : primitives);
  return {
    assert(key) {
      if (!store(key).has(key)) throw new TypeError(`Side channel does not contain ${String(key)}`);
    },
    delete: (key) => store(key).delete(key),
    get: (key) => store(key).get(key),
    has: (key) => store(key).has(key),
    set(key, value) {
      store(key).set(key, value);
    },
  };
};
