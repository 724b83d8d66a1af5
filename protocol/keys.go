package protocol

// The keys press takes (docs/wire.md, "Wire formats"). The host
// parses the agent's "Control+Shift+A" once (host/keys.go) into a key
// named here or one character, and modifiers named here, and sends both in
// ActParams.Key and ActParams.Modifiers: the kernel reads them as they
// are, and builds its key events from the same table, which
// `go generate ./protocol` writes into extension/kernel/keycodes.js.

// Key is a named key as a real keyboard reports it.
type Key struct {
	Name    string // as press and ActParams.Key name it
	DOMKey  string // KeyboardEvent.key
	Code    string // KeyboardEvent.code
	KeyCode int    // KeyboardEvent.keyCode, the DevTools protocol's windowsVirtualKeyCode
	Text    string // what the key types ("\r" for Enter), "" for nothing
}

// NamedKeys lists every key press takes by name.
var NamedKeys = []Key{
	{"Enter", "Enter", "Enter", 13, "\r"},
	{"Tab", "Tab", "Tab", 9, ""},
	{"Escape", "Escape", "Escape", 27, ""},
	{"Backspace", "Backspace", "Backspace", 8, ""},
	{"Delete", "Delete", "Delete", 46, ""},
	{"Space", " ", "Space", 32, " "},
	{"ArrowUp", "ArrowUp", "ArrowUp", 38, ""},
	{"ArrowDown", "ArrowDown", "ArrowDown", 40, ""},
	{"ArrowLeft", "ArrowLeft", "ArrowLeft", 37, ""},
	{"ArrowRight", "ArrowRight", "ArrowRight", 39, ""},
	{"Home", "Home", "Home", 36, ""},
	{"End", "End", "End", 35, ""},
	{"PageUp", "PageUp", "PageUp", 33, ""},
	{"PageDown", "PageDown", "PageDown", 34, ""},
	{"Insert", "Insert", "Insert", 45, ""},
	// The menu key: the page's context menu for the focused element.
	{"ContextMenu", "ContextMenu", "ContextMenu", 93, ""},
	{"F1", "F1", "F1", 112, ""}, {"F2", "F2", "F2", 113, ""}, {"F3", "F3", "F3", 114, ""},
	{"F4", "F4", "F4", 115, ""}, {"F5", "F5", "F5", 116, ""}, {"F6", "F6", "F6", 117, ""},
	{"F7", "F7", "F7", 118, ""}, {"F8", "F8", "F8", 119, ""}, {"F9", "F9", "F9", 120, ""},
	{"F10", "F10", "F10", 121, ""}, {"F11", "F11", "F11", 122, ""}, {"F12", "F12", "F12", 123, ""},
}

// KeyAliases are the other names press accepts for named keys, lower case
// (a name itself is accepted in any case).
var KeyAliases = map[string]string{
	"esc": "Escape", "return": "Enter", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft",
	"right": "ArrowRight", "del": "Delete", " ": "Space", "spacebar": "Space", "menu": "ContextMenu", "apps": "ContextMenu",
}

// The modifiers of ActParams.Modifiers.
const (
	ModControl = "Control"
	ModShift   = "Shift"
	ModAlt     = "Alt"
	ModMeta    = "Meta"
)

// Modifiers lists them.
var Modifiers = []string{ModControl, ModShift, ModAlt, ModMeta}

// ModifierNames are the names press accepts for each modifier, lower case.
var ModifierNames = map[string]string{
	"control": ModControl, "ctrl": ModControl, "shift": ModShift, "alt": ModAlt, "option": ModAlt,
	"meta": ModMeta, "cmd": ModMeta, "command": ModMeta, "super": ModMeta,
}
