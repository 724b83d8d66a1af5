// @ts-check
// Running the kernel without shipping it every time: the first injection
// into a document leaves gripKernel on the isolated world's globalThis
// (invisible to the page); later ones inject only callInstalledKernel.
import { gripKernel } from './kernel.js';

/** What callInstalledKernel answers in a document without the kernel. */
export const NO_KERNEL = '__grip_no_kernel__';

/**
 * callInstalledKernel runs the kernel a previous injection left in this
 * document, if it is the same build (req.kernel names it); otherwise it
 * answers NO_KERNEL and the worker injects gripKernel itself. Standalone,
 * like gripKernel: the literal below must equal NO_KERNEL.
 * @param {any} req
 * @returns {any}
 */
export function callInstalledKernel(req) {
  const k = /** @type {any} */ (globalThis).__gripKernel__;
  if (k && k.id === req.kernel && typeof k.fn === 'function') return k.fn(req);
  return '__grip_no_kernel__';
}

/**
 * kernelID names this build of the kernel (a hash of its source), so a
 * document never runs a kernel left behind by an older version.
 * @returns {string}
 */
export function kernelID() {
  const src = gripKernel.toString();
  let h = 5381;
  for (let i = 0; i < src.length; i++) h = ((h * 33) ^ src.charCodeAt(i)) >>> 0;
  return h.toString(36) + '.' + src.length.toString(36);
}
