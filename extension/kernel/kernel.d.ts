// Types of the in-page kernel, for tsc only (never injected): the object
// the files in KERNEL_FILES (extension/worker/kernel-files.js) build on the isolated
// world's globalThis, one part per file, in that order. Each file takes
// what it uses from the files before it. A test checks that each file adds
// exactly the names listed under it here.

// A refusal as the kernel replies it: codes and boundaries are
// protocol/errors.go's (extension/protocol.d.ts), so tsc refuses a misspelt one.
type GripError = { code: protocol.Code; boundary: protocol.Boundary; message: string; hint: string };
type Failure = { error: GripError };
type Signature = {
  tag: string; type: string; role: string; name: string; href: string; action: string; checked: string; selected: string;
};
type RefCache = { byNode: WeakMap<Element, number>; byId: Map<number, Element>; next: number; sig: Map<number, Signature> };
/** What a snapshot walk collects for a re-read (snapshot.js, reread.js). */
type WalkFound = { unseen: Element[]; far: Element[]; pruned: Element[]; hosts: Element[]; els: Element[]; sigs: Signature[]; ws: string[][];
  how: ListedAs[]; reads: Reads[]; roots: (Node | null)[]; walkReads?: Reads; contexts?: ContextMemo;
  dropped: { el: Element; how: ListedAs; reads: Reads; root: Node | null }[] };
// How a walk listed an element (snapshot.js listed), to list it again.
type ListedAs = { as: number; role: string; drawing: boolean; svgPart: boolean; control: boolean; wrapped: HTMLSelectElement | null; says?: boolean };
// Boxes' contexts, with what each read (context.js contextIn).
type ContextMemo = Map<Node, { c: string | { heads: Element[] }; reads: Reads }>;
// What a walk read that a change of text can change (base.js readsInto).
type Reads = { text: Node[]; facts: any[] };
type KeptLabels = { index: Map<Node, Map<Element, Element[]>>; orphans: Map<Node, Element[]> };
type Reported = { id: number; role: string; name: string; value?: string; states?: string[]; href?: string; ctx?: string };
type Point = { x: number; y: number };
type KeyInit = { key: string; code: string; keyCode: number };
type Modifiers = { ctrl: boolean; shift: boolean; alt: boolean; meta: boolean };
type EditKind = 'input' | 'textarea' | 'editable' | 'context' | '';
type TextOptions = { stopBlocks?: boolean; checkVis?: boolean; inLabel?: boolean; skip?: Node; shown?: boolean; noLinks?: boolean; lines?: boolean };
// Chrome's EditContext API, which TypeScript's DOM library does not have yet.
interface EditContext extends EventTarget {
  readonly text: string; readonly selectionStart: number; readonly selectionEnd: number;
  updateText(start: number, end: number, text: string): void;
  updateSelection(start: number, end: number): void;
}
type TextUpdateEventInit = EventInit & {
  text: string; updateRangeStart: number; updateRangeEnd: number; selectionStart: number; selectionEnd: number;
};
declare var TextUpdateEvent: { prototype: Event; new (type: string, init: TextUpdateEventInit): Event };

interface GripKernel {
  // base.js
  /** Which instance of the extension installed this kernel (kernelBuild
   * in inject.js), stamped by the worker's caller right after it injected
   * these files ('' until then): a kernel whose build differs from the
   * worker's is never run. */
  build: string;
  fail(code: protocol.Code, boundary: protocol.Boundary, message: string, hint?: string): Failure;
  fold(s: string): string;
  cut(s: string, n: number): string;
  quote(s: string): string;
  attr(el: Element, name: string): string | null;
  hasAttr(el: Element, name: string): boolean;
  attrMemo(on: boolean): void;
  readsInto(r: Reads | null): Reads | null;
  noteText(n: Node): void;
  textIn(n: Node): string;
  fact<F extends (el: any) => any>(f: F): F;
  readsNow(): { reads: Reads | null; inFact: boolean };
  domApi: any;

  // cache.js
  openCache(): void;
  idFor(el: Element): number;
  idOf(el: Element): number | undefined;
  elementOf(id: number): Element | undefined;
  sigOf(id: number): Signature | undefined;
  setSig(id: number, sig: Signature): void;
  pruneCache(): void;
  aliveUnlisted(listed: { id: number }[]): number[];

  // tree.js
  SKIP_WALK: Set<string>;
  shadowOf(el: Element): ShadowRoot | null;
  flatParent(n: Node): Node | null;
  containsFlat(outer: Node, inner: Node | null): boolean;
  closestFlat(el: Element, sel: string): Element | null;
  deepActive(): Element | null;

  // visibility.js
  isHiddenAttr(el: Element): boolean;
  hiddenReason(el: Element): string;
  isVisible(el: Element): boolean;
  visibleMemo(on: boolean): void;
  noBox(el: Element): boolean;
  clippedShut(el: Element): boolean;
  thinBox(el: Element): boolean;
  speck(el: Element): boolean;
  farOff(el: Element): boolean;
  areaBox(el: Element): Element | null;

  // roles.js
  CONTROL_ROLES: Set<string>;
  NAME_FROM_CONTENT: Set<string>;
  TEXT_ROLES: Set<string>;
  PROSE_TAGS: Map<string, string>;
  HEADING_TAGS: Set<string>;
  TEXT_INPUTS: Set<string>;
  BUTTON_INPUTS: Set<string>;
  declaredRole(el: Element): string;
  inputType(el: Element): string;
  isEditingHost(el: Element): boolean;
  roleOf(el: Element): string;
  roleWith(el: Element, declared: string): string;
  implicitRole(el: Element): string;

  // icons.js
  iconWord(el: Element): string;
  useWord(use: Element): string;
  titleChild(el: Element): string;
  withoutGlyphs(s: string): string;
  ligatureWords(s: string): string;

  // names.js
  textOf(n: Node, opt: TextOptions): string;
  selectValue(s: HTMLSelectElement): string;
  forgetLabels(): void;
  labelsKept(): KeptLabels;
  useLabels(kept: KeptLabels): void;
  setWalkRoot(root: Node | null): Node | null;
  labelsOf(el: Element): Element[];
  labelName(el: Element): string;
  nameOf(el: Element, role: string): string;
  cellName(el: Element): string;
  nameInferred(): boolean;
  labelledByAria(el: Element): boolean;
  ownText(el: Element): string;
  hasOwnText(el: Element): boolean;

  // editcontext.js
  editContextOf(el: Element): EditContext | null;
  drawnText(surface: Element, skip: Element | null): string;
  lastDrawn(surface: Element, skip: Element | null): Text | null;
  editContextInput(el: Element, text: string, del?: 'backward' | 'forward'): boolean;

  // editors.js
  visibleText(s: string): string;
  viewRect(el: Element): { left: number; top: number; right: number; bottom: number } | null;
  surfaceOf(el: Element): Element | null;
  editorText(el: Element): string;
  ownPart(el: Element, hit: Element): boolean;
  endPoint(surface: Element, el: Element): Point;
  endOf(el: Element): { node: Node; offset: number };

  // widgets.js
  unseenSelect(s: HTMLSelectElement): boolean;
  selectStandIn(s: HTMLSelectElement): Element | null;
  wrappedSelect(el: Element, role: string): HTMLSelectElement | null;
  chosenText(s: HTMLSelectElement): string;
  wrapperName(el: Element, s: HTMLSelectElement): string;
  controlRole(el: Element): string;
  standInOptions(el: Element, s: HTMLSelectElement): Element[];
  comboValue(el: Element): string;
  clickableName(el: Element): string;
  hrefOf(el: Element): string;
  cursorOf(el: Element): string;
  clickStart(el: Element, cursor: string, parentCursor: string): boolean;
  hoverMemo(on: boolean): void;
  isClickable(el: Element): boolean;
  isWidget(el: Element, role: string): boolean;
  scrollerOf(el: Element): Element | null;
  scrollMarks(sc: Element): string[];
  widgetStates(el: Element, role: string): string[];
  isControlRole(role: string): boolean;

  // drawings.js
  isDrawingRoot(el: Element): boolean;
  drawingRole(el: Element): string;
  drawingName(el: Element, role: string): string;
  drawnStart(el: Element, cursor: string, parentCursor: string): boolean;
  drawingOf(el: Element): Element | null;
  isDrawnPart(el: Element): boolean;
  hasParts(root: Element): boolean;
  partName(el: Element): string;
  boxState(el: Element): string;
  canvasShown(el: Element): boolean;

  // states.js
  FORM_TAGS: Set<string>;
  isSecret(el: Element): boolean;
  valueText(el: Element, role: string): string;
  checkedOf(el: Element, role: string): string;
  isDisabled(el: Element): boolean;
  statesOf(el: Element, role: string, content: boolean): string[];
  signatureOf(el: Element, role: string, name: string): Signature;
  describe(el: Element): { role: string; name: string; sig: Signature };
  brief(el: Element): string;

  // snapshot.js
  snapshot(mode: string, keepSignatures: boolean, allContexts?: boolean, found?: WalkFound): {
    url: string; title: string; elements: Reported[]; stats: { nodes: number; ms: number; reread?: boolean };
  };

  relist(els: Element[], hows: ListedAs[], roots: (Node | null)[], content: boolean, keepSignatures: boolean): { r: Reported; sig: Signature; ws: string[]; reads: Reads }[] | null;
  mergeReads(to: Reads, from: Reads): void;

  // reread.js
  reread(mode: string, keepSignatures: boolean, allContexts: boolean, known?: unknown): ReturnType<GripKernel['snapshot']> & { walk?: string; same?: boolean; alive?: number[]; base?: string; patch?: { at: number; el: Reported }[] };

  // probe.js
  probe(r: { text?: string; id?: number }): { textFound: boolean; present: boolean };
  watch(r: { text?: string; gone?: boolean; id?: number; ms?: number }): Promise<{ met: boolean }>;

  // read.js
  readText(el: Element, r: { from?: number; max?: number }): { text: string; total: number; secret?: boolean; secrets?: number };

  // context.js
  contextOf(el: Element): string;
  addContexts(out: { id: number; role: string; name: string; ctx?: string }[], elementOf: (id: number) => Element | undefined, all?: boolean, kept?: ContextMemo): void;

  // polls.js
  keepRequests(): unknown;
  requestsFromHere(action: number): void;
  polledSince(action: number, began: number): string[];

  // settle.js
  trackChanges(): unknown;
  changesFromHere(action?: number): void;
  settleState(r?: { ago?: number; action?: number; began?: number }): { sinceChange: number; busy: string; animating: number; live?: boolean; still?: boolean; polled?: string[] };
  endingAnimations(): { anim: Animation; ms: number }[];
  nextChange(r: { ms?: number }): Promise<{ changed: boolean }>;

  // said.js
  saidBaseline(): void;
  saidMark(el: Element | null, action: string): void;
  saidSince(since: number): { role: string; text: string; id?: number }[];

  // frames.js
  frameIndexOf(r: { selector?: string }): { index: number } | Failure;

  // acts.js
  actionable(el: Element, needEnabled: boolean): { point: Point } | Failure;
  done(el: Element, id: number, reply: any): any;
  labelOf(el: Element, hit: Element): boolean;
  occluder(hit: Element): Element;
  hitAt(x: number, y: number): Element | null;
  actionableAt(el: Element, spot: protocol.Spot, needEnabled: boolean, what: string): { point: Point; hit: Element } | Failure;
  underPoint(el: Element | null, spot: protocol.Spot, hit: Element): string;

  // trusted.js
  /** The mark the worker last set in this document (setMark), to find
   * this document's isolated world through the debugger. */
  mark: string;
  setMark(r: { mark?: string }): { ok: boolean };
  hitReason(el: Element, hit: Element): string;
  focusReason(el: Element): string;

  // keycodes.js
  /** Generated from protocol/keys.go: name → [key, code, keyCode]. */
  KEYS: Record<string, [string, string, number]>;

  // events.js
  mouse(type: string, pt: Point, detail: number, buttons: number, button?: number): MouseEvent;
  pointer(type: string, pt: Point, buttons: number, button?: number): MouseEvent;
  keyInit(ch: string): KeyInit;
  keyEvent(target: Element, type: string, k: KeyInit, m: Modifiers): boolean;
  NO_MODS: Modifiers;
  inputEvent(el: Element, type: string, inputType: string, data: string | null, cancelable: boolean): boolean;
  fireChange(el: Element): void;

  // focus.js
  focusAsPerson(el: Element, opts?: FocusOptions): boolean;
  blurAsPerson(el: HTMLElement): void;

  // pointer.js
  hoverAt(el: Element, pt: Point): void;
  clickAt(el: Element, pt: Point, detail: number, at?: boolean): void;
  contextClickAt(el: Element, pt: Point): void;
  activate(el: Element, pt: Point, detail: number, at: boolean): void;
  drawnTarget(el: Element, pt: Point): Element;
  focusable(e: Element): boolean;

  // richtext.js
  tick(): Promise<void>;
  frame(): Promise<void>;
  docShortcut(el: Element, all: boolean): boolean;
  editableText(el: Element, text: string): void;
  editableBreak(el: Element): void;
  editableDelete(el: Element, forward: boolean): void;
  readyEditable(el: Element, all: boolean): Promise<void>;
  typeEditable(el: Element, text: string, replace: boolean): Promise<void>;

  // editing.js
  editKind(el: Element): EditKind;
  readOnlyRefusal(el: Element): Failure;
  setValue(el: Element, v: string): void;
  selectAllIn(el: Element): void;
  caretToEnd(el: Element): void;
  insertInto(el: Element, text: string, how: string): boolean;
  typeInto(el: Element, id: number, text: string, replace: boolean): any;
  shownText(el: Element, before: string, want: string | null): Promise<string>;
  readyToType(el: Element, all: boolean): Promise<void>;
  implicitSubmit(el: Element): boolean;
  contextKey(el: Element, ch: string): void;

  // choice.js
  selectIn(el: Element, id: number, want: string): any;
  checkable(el: Element): boolean;
  setChecked(el: Element, id: number, want: boolean, pt: Point): any;

  // drag.js
  doDrag(src: Element, srcId: number, dst: Element, dstId: number, toAt: protocol.Spot | null, from?: protocol.Spot | null): any;

  // find.js
  find(el: Element | null, r: { text?: string; find?: any }): Promise<any>;
  listView(list: Element, sc: Element): { unit: string; first: number; last: number; total: number; estimated?: boolean } | null;
  listReply(list: Element, sc: Element, before: number[]): any | undefined;
  idsInside(list: Element, assign: boolean): number[];
  rendered(root: Element): Promise<void>;
  noMatch(selector: string, what?: string): { error: GripError };

  // scroll.js
  scrollPage(fy: number, fx: number): void;
  doScroll(el: Element | null, r: { text?: string; value?: string }): any;

  // keys.js
  doPress(el: Element | null, r: { key?: string; modifiers?: string[]; trusted?: boolean }): any;

  // files.js
  stageUpload(r: { upload?: unknown; file?: unknown; data?: unknown }): { ok: boolean } | Failure;
  fileInputFor(el: Element): HTMLInputElement | Failure;
  uploadInto(el: Element, id: number, r: { upload?: { id?: unknown; files?: unknown } }): any;

  // listen.js
  listen(r: { rec?: string }): { ok: boolean };

  // run.js
  run(req: KernelRequest): any;
}

// The kernel's calls, the worker→page boundary: each op with the request
// the worker sends (runKernel, runInDocument: extension/worker/inject.js) and the
// kernel's reply. run.js's handler table is typed by KernelHandlers, so tsc
// fails on an op without a handler, a handler without an op, or a call
// whose fields its op does not take; extension's TestKernelCallsHaveHandlers
// compares the two lists without tsc. A new call: its row here, its handler
// in run.js.
/** The kernel's read: the walk, as one JSON string when asked asJSON. */
type SnapshotReply = string | (ReturnType<GripKernel['reread']> & { settle?: ReturnType<GripKernel['settleState']>; said?: ReturnType<GripKernel['saidSince']> });

interface KernelCalls {
  snapshot: {
    req: { mode?: string; keepSignatures?: boolean; asJSON?: boolean; settle?: boolean; allContexts?: boolean; known?: unknown; saidSince?: number };
    reply: SnapshotReply;
  };
  act: {
    req: {
      action?: string; text?: string; value?: string; key?: string; modifiers?: string[]; trusted?: boolean;
      id?: number; selector?: string; toId?: number; toSelector?: string; find?: unknown;
      at?: protocol.Spot; toAt?: protocol.Spot;
      upload?: { id?: unknown; files?: unknown }; waited?: boolean; began?: number;
    };
    reply: any;
  };
  settle: { req: { ago?: number; action?: number; began?: number }; reply: ReturnType<GripKernel['settleState']> };
  nextChange: { req: { ms?: number }; reply: Promise<{ changed: boolean }> };
  mark: { req: { mark?: string }; reply: { ok: boolean } };
  probe: { req: { text?: string; id?: number }; reply: { textFound: boolean; present: boolean } };
  watch: { req: { text?: string; gone?: boolean; id?: number; ms?: number }; reply: Promise<{ met: boolean }> };
  frameIndex: { req: { selector?: string }; reply: { index: number } | Failure };
  stage: { req: { upload?: unknown; file?: unknown; data?: unknown }; reply: { ok: boolean } | Failure };
  read: {
    req: { id?: number; from?: number; max?: number };
    reply: (ReturnType<GripKernel['readText']> & { role: string; name: string }) | Failure;
  };
  listen: { req: { rec?: string }; reply: { ok: boolean } };
}
// What listen.js tells the worker of one step of the person's
// (protocol.PersonStep's fields that the page knows).
type PersonTarget = { role: string; name: string; ctx?: string };
type PersonStepMsg = {
  verb: string; target?: PersonTarget; to?: PersonTarget; text?: string; hasText?: boolean; secret?: boolean; file?: boolean;
};
type KernelOp = keyof KernelCalls;
/** One request to the kernel: its op and that op's fields. */
type KernelRequest = { [K in KernelOp]: { op: K } & KernelCalls[K]['req'] }[KernelOp];
/** run.js's table: one handler per op, on its request, returning its reply
 * or a refusal. */
type KernelHandlers = { [K in KernelOp]: (r: KernelCalls[K]['req']) => KernelCalls[K]['reply'] | Failure | Promise<Failure | Awaited<KernelCalls[K]['reply']>> };

// The kernel's object on the isolated world's globalThis. base.js, the first
// file injected, makes it, so every later file finds it there: typed as
// always present, not `| undefined` (which made each use a strict error).
declare var __gripKernel__: GripKernel;
