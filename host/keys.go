package host

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/chromedp/cdproto/input"
	"github.com/grip-dev/grip/protocol"
)

// keyInfo is what a real keyboard reports for a named key.
type keyInfo struct {
	code    string
	keyCode int64
	text    string
}

// namedKeys, keyAliases and modifierNames are protocol's tables, which the
// kernel builds its key events from too (protocol/keys.go).
var namedKeys = sync.OnceValue(func() map[string]keyInfo { // on first use, not at every start
	m := make(map[string]keyInfo, len(protocol.NamedKeys))
	for _, k := range protocol.NamedKeys {
		m[k.Name] = keyInfo{k.Code, int64(k.KeyCode), k.Text}
	}
	return m
})

var keyAliases = protocol.KeyAliases

var modifierNames = protocol.ModifierNames

// modifierBits are CDP's modifier flags: Alt=1, Ctrl=2, Meta=4, Shift=8.
var modifierBits = map[string]int64{"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}

// parseKey splits "Control+Shift+A" into the key and its modifiers, and
// refuses what is not a key.
func parseKey(s string) (string, []string, error) {
	bad := func(why string) error {
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"name one key with optional modifiers, e.g. Enter, Tab, Shift+Tab, Control+A, ArrowDown", "%q: %s", s, why)
	}
	if s == "" {
		return "", nil, bad("no key given")
	}
	parts := strings.Split(s, "+")
	if strings.HasSuffix(s, "++") || s == "+" { // "Control++" means the plus key
		parts = append(parts[:len(parts)-2], "+")
	}
	var mods []string
	for _, p := range parts[:len(parts)-1] {
		m, ok := modifierNames[strings.ToLower(strings.TrimSpace(p))]
		if !ok {
			return "", nil, bad("unknown modifier " + p)
		}
		mods = append(mods, m)
	}
	key := parts[len(parts)-1]
	if a, ok := keyAliases[strings.ToLower(key)]; ok {
		key = a
	}
	for name := range namedKeys() {
		if strings.EqualFold(name, key) {
			return name, mods, nil
		}
	}
	if utf8.RuneCountInString(key) == 1 {
		return key, mods, nil
	}
	return "", nil, bad("unknown key " + key)
}

// keyCommands builds a real key press (down, up) with its modifiers.
func keyCommands(key string, modifiers []string) []protocol.CDPCommand {
	var bits int64
	for _, m := range modifiers {
		bits |= modifierBits[m]
	}
	info, named := namedKeys()[key]
	domKey := key
	if key == "Space" {
		domKey = " "
	}
	if !named {
		r, _ := utf8.DecodeRuneInString(key)
		info = keyInfo{text: key}
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			info.code = "Key" + strings.ToUpper(key)
			info.keyCode = int64(strings.ToUpper(key)[0])
		} else if r >= '0' && r <= '9' {
			info.code = "Digit" + key
			info.keyCode = int64(r)
		}
	}
	text := info.text
	if bits&(modifierBits["Control"]|modifierBits["Alt"]|modifierBits["Meta"]) != 0 {
		text = "" // a shortcut types nothing
	}
	down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Modifiers: bits, Key: domKey,
		Code: info.code, WindowsVirtualKeyCode: info.keyCode, Text: text, UnmodifiedText: text}
	if text == "" {
		down.Type = input.DispatchKeyEventTypeRawKeyDown
	}
	up := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Modifiers: bits, Key: domKey,
		Code: info.code, WindowsVirtualKeyCode: info.keyCode}
	return []protocol.CDPCommand{{Method: input.CommandDispatchKeyEvent, Params: down}, {Method: input.CommandDispatchKeyEvent, Params: up}}
}
