// The popup's calls, the popup→worker boundary (chrome.runtime.sendMessage):
// each message type with the fields the popup sends and what the worker
// answers. popup-api.js's handler table is typed by PopupHandlers and the
// popup's ask by PopupRequest, so tsc fails on a type without a handler, a
// handler without a type, or a message its type does not take; extension's
// TestPopupCallsHaveHandlers compares the lists without tsc. A new call: its
// row here, its handler in popup-api.js. For tsc only: never loaded.

interface PopupCalls {
  status: { req: {}; reply: { connection: object; profileId?: string; host: protocol.Status | null; hostError: string; errors: string[] } };
  snapshot: { req: { tabId?: number; budget?: number }; reply: protocol.Snapshot };
  reconnect: { req: {}; reply: { ok: boolean } };
  // The person's controls.
  person: { req: { tabId: number }; reply: object };
  set_paused: { req: { paused: boolean }; reply: { paused: boolean } };
  set_never_debugger: { req: { never: boolean }; reply: { never: boolean } };
  share: { req: { tabId: number; shared: boolean }; reply: { ok: boolean } };
  answer: { req: { id: string; allowed: boolean }; reply: { ok: boolean } };
  // Sessions (sessions.js).
  end_session: { req: { session: string }; reply: { ok: boolean } };
  allow_session: { req: { session: string }; reply: { ok: boolean } };
  release: { req: { tabId: number }; reply: { ok: boolean } };
  show_tab: { req: { tabId: number }; reply: { ok: boolean } };
  // Recording by demonstration (person-record.js).
  record_view: { req: {}; reply: object };
  record_start: { req: { tabId: number }; reply: { ok: boolean } };
  record_finish: { req: { done: boolean; name?: string }; reply: { ok: boolean; path?: string; steps?: number } };
  record_refuse: { req: { id: string }; reply: { ok: boolean } };
  record_drop: { req: { index: number }; reply: { ok: boolean } };
  record_param: { req: { index: number; name: string }; reply: { ok: boolean } };
}
type PopupType = keyof PopupCalls;
/** One message of the popup to the worker: its type and that type's fields. */
type PopupRequest = { [K in PopupType]: { type: K } & PopupCalls[K]['req'] }[PopupType];
/** popup-api.js's table: one handler per type, on its message. */
type PopupHandlers = { [K in PopupType]: (msg: { type: K } & PopupCalls[K]['req']) => Promise<PopupCalls[K]['reply']> | PopupCalls[K]['reply'] };
