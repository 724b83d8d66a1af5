// @ts-check
// The in-page kernel's files in injection order, the one list of them:
// each adds its part to the object base.js makes and takes what it uses
// from the files before it (extension/kernel/kernel.d.ts types each part).
// inject.js injects them; the Go side (extension.KernelFiles) reads this
// file from the embedded extension, so it stays a plain list of strings.
export const KERNEL_FILES = [
  'kernel/base.js',
  'kernel/cache.js',
  'kernel/tree.js',
  'kernel/visibility.js',
  'kernel/roles.js',
  'kernel/icons.js',
  'kernel/names.js',
  'kernel/editcontext.js',
  'kernel/editors.js',
  'kernel/widgets.js',
  'kernel/drawings.js',
  'kernel/states.js',
  'kernel/context.js',
  'kernel/snapshot.js',
  'kernel/reread.js',
  'kernel/probe.js',
  'kernel/read.js',
  'kernel/settle.js',
  'kernel/said.js',
  'kernel/frames.js',
  'kernel/acts.js',
  'kernel/trusted.js',
  'kernel/keycodes.js',
  'kernel/events.js',
  'kernel/focus.js',
  'kernel/pointer.js',
  'kernel/richtext.js',
  'kernel/editing.js',
  'kernel/choice.js',
  'kernel/drag.js',
  'kernel/find.js',
  'kernel/scroll.js',
  'kernel/keys.js',
  'kernel/files.js',
  'kernel/listen.js',
  'kernel/run.js',
];
