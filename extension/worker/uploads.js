// @ts-check
// Uploads, the worker's part (docs/files.md, "Files in and out").
// The host streams each file's bytes in upload_chunk requests (base64,
// under native messaging's 1 MiB a message); they wait here for the act
// that names them, which hands them to the page's kernel in larger pieces
// before it asks the kernel to put them into the input.
import { wireError } from './errors.js';
import { runInDocument } from './inject.js';

/**
 * Uploads received and not yet handed over, by id. In memory on purpose:
 * an upload lives for one request of the host, over a connection that
 * keeps the worker running; if the worker stops, the connection and the
 * request end with it. An upload nobody claimed (its act was refused at
 * the host) is dropped after STAGE_TTL_MS.
 * @type {Map<string, {files: string[][], sizes: number[], touched: number}>}
 */
const staged = new Map();
const STAGE_TTL_MS = 60000;


/** The file index bound, as a sanity check on the host's requests. */
const MAX_FILES = 1000;

function sweep() {
  const now = Date.now();
  for (const [id, s] of staged) if (now - s.touched > STAGE_TTL_MS) staged.delete(id);
}

/** The number of bytes base64 text decodes to.
 * @param {string} b64 */
function decodedLength(b64) {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - pad;
}

/**
 * Keeps one chunk of one file. Chunks come in order; one out of order (or
 * a gap) is an error rather than a corrupt file.
 * @param {protocol.UploadChunkParams} params
 * @returns {protocol.OKReply}
 */
export function uploadChunk(params) {
  sweep();
  const { upload, file, offset, data } = params;
  if (typeof upload !== 'string' || !upload || !Number.isInteger(file) || file < 0 || file >= MAX_FILES ||
      typeof data !== 'string' || data.length % 4 !== 0) {
    throw wireError('malformed upload chunk', 'bad_request', 'payload');
  }
  let s = staged.get(upload);
  if (!s) {
    s = { files: [], sizes: [], touched: Date.now() };
    staged.set(upload, s);
  }
  while (s.files.length <= file) {
    s.files.push([]);
    s.sizes.push(0);
  }
  if (offset !== s.sizes[file]) {
    staged.delete(upload);
    throw wireError(`upload chunk of file ${file} at byte ${offset} came after ${s.sizes[file]} bytes`, 'internal', 'browser', 'retry the upload');
  }
  s.files[file].push(data);
  s.sizes[file] += decodedLength(data);
  s.touched = Date.now();
  return { ok: true };
}

/**
 * Hands the bytes of upload to the kernel of the document target names,
 * chunk by chunk (Chrome copies small strings between processes much
 * faster per byte than large ones: protocol.UploadChunkBytes), and
 * forgets them here. The act that follows in the same document builds the
 * files.
 * @param {chrome.scripting.InjectionTarget} target
 * @param {{id: string, files: {name: string, size: number}[]}} upload
 */
export async function handToPage(target, upload) {
  const s = staged.get(upload.id);
  staged.delete(upload.id);
  const files = Array.isArray(upload.files) ? upload.files : [];
  for (let i = 0; i < files.length; i++) {
    const got = s ? s.sizes[i] || 0 : 0;
    if (got !== files[i].size) {
      throw wireError(`file ${JSON.stringify(files[i].name)} reached the browser with ${got} of ${files[i].size} bytes`,
        'internal', 'browser', 'retry the upload');
    }
  }
  if (!s) return;
  for (let i = 0; i < s.files.length; i++) {
    for (const data of s.files[i]) await runInDocument(target, { op: 'stage', upload: upload.id, file: i, data });
  }
}
