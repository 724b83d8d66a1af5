// @ts-check
// The kernel's per-document element cache: every element a reply names gets
// a local id from byNode (a WeakMap, so the id follows the node object, not
// its position) and keeps it for the life of the document; byId finds the
// node again; sig holds the meaning each id had when the agent last saw it.
// It lives on globalThis.__gripRefCache__, apart from the kernel's own
// object, so refs survive a re-injected kernel. A test pins every copy of
// that name.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  /** @type {any} */
  const G = globalThis;

  /** @param {any} m @param {boolean} iterable */
  function mapLike(m, iterable) {
    return !!m && typeof m === 'object' && typeof m.get === 'function' && typeof m.set === 'function' &&
      typeof m.delete === 'function' && (!iterable || typeof m.forEach === 'function');
  }

  /** This document's cache, as the current call's openCache found it. @type {RefCache} */
  let cache;

  /** Opens this document's cache, making it when absent or malformed. The
   * check is structural, never instanceof: the maps may come from another
   * realm. Each call of the kernel opens it first. */
  function openCache() {
    /** @type {any} */
    let c;
    try { c = G.__gripRefCache__; } catch (_) { c = null; }
    if (c && typeof c === 'object' && mapLike(c.byNode, false) && mapLike(c.byId, true) && mapLike(c.sig, true) &&
      typeof c.next === 'number' && Number.isFinite(c.next) && c.next >= 1) {
      cache = c;
      return;
    }
    /** @type {RefCache} */
    const fresh = { byNode: new WeakMap(), byId: new Map(), next: 1, sig: new Map() };
    try {
      Object.defineProperty(G, '__gripRefCache__', { value: fresh, writable: true, configurable: true, enumerable: false });
    } catch (_) {
      // A page (main world only) froze the name: work with a cache that lasts this call.
    }
    cache = fresh;
  }

  /** The element's local id, given on first sight. `next` only grows.
   * @param {Element} el @returns {number} */
  function idFor(el) {
    let id = cache.byNode.get(el);
    if (typeof id !== 'number') {
      id = cache.next;
      cache.next = id + 1;
      cache.byNode.set(el, id);
    }
    if (cache.byId.get(id) !== el) cache.byId.set(id, el);
    return id;
  }

  /** The id el already has, if any. @param {Element} el @returns {number|undefined} */
  function idOf(el) {
    return cache.byNode.get(el);
  }

  /** The element with that id, if the cache still holds it (maybe detached).
   * @param {number} id @returns {Element|undefined} */
  function elementOf(id) {
    return cache.byId.get(id);
  }

  /** @param {number} id @returns {Signature|undefined} */
  function sigOf(id) {
    return cache.sig.get(id);
  }

  /** @param {number} id @param {Signature} sig */
  function setSig(id, sig) {
    cache.sig.set(id, sig);
  }

  /** Forgets nodes that left the document (a snapshot does it first), so
   * pages that re-render leak nothing; a node that comes back is found again
   * through byNode, with its old id. */
  function pruneCache() {
    cache.byId.forEach((el, id) => {
      if (!el || !el.isConnected) {
        cache.byId.delete(id);
        cache.sig.delete(id);
      }
    });
  }

  /** The ids of elements still in the document that a read did not list
   * (listed holds the ids it did): their refs stay live whatever a read in
   * another mode leaves out, for a ref means "this element while it is on
   * the page" (docs/identity.md, "Identity").
   * @param {{id: number}[]} listed @returns {number[]} */
  function aliveUnlisted(listed) {
    /** @type {Set<number>} */
    const seen = new Set();
    for (let i = 0; i < listed.length; i++) seen.add(listed[i].id);
    /** @type {number[]} */
    const out = [];
    cache.byId.forEach((el, id) => {
      if (!seen.has(id) && el && el.isConnected) out.push(id);
    });
    return out;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    openCache, idFor, idOf, elementOf, sigOf, setSig, pruneCache, aliveUnlisted,
  }));
})();
