package protocol

import (
	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// The messages every command sends and reads — a request, its reply, the
// hello, the host's answer to it, the tab list and an error — encode and
// decode through the msgpack library's own Encoder and Decoder calls,
// field by field, instead of its reflection over the struct. Each CLI
// command is a new process, and the library's first use of a struct type
// builds its field table by reflection: for these types that was about a
// quarter of `grip tabs`'s instructions (docs/cli-cost.md, "The CLI's
// fixed cost"). The bytes are the reflection's, byte for byte, with the
// options Marshal and SocketWriter set (json tags, every zero field left
// out): protocol/hotcodec_test.go holds each type to its plain twin below
// on a value with every field set (a field added to the struct and not
// here fails it), and FuzzHotCodecs holds decoding equal on any input.
//
// The plain twins are the same structs without these methods: anything
// but a map (a struct sent as an array, a wrong type) is decoded by the
// library's reflection into the twin, so odd input is judged exactly as
// before.
type (
	plainRequest         Request
	plainReply           Reply
	plainHelloArgs       HelloArgs
	plainHostInfo        HostInfo
	plainLaunchedBrowser LaunchedBrowser
	plainTabsResult      TabsResult
	plainTab             Tab
	plainError           Error
)

// fieldWriter writes a struct's fields that are not zero. It runs twice
// over the same fields: without an encoder it counts them (the map's
// length comes first), with one it writes them.
type fieldWriter struct {
	enc *msgpack.Encoder
	n   int
	err error
}

// key says whether the field is written, and writes its key.
func (w *fieldWriter) key(zero bool, key string) bool {
	if zero || w.err != nil {
		return false
	}
	if w.enc == nil {
		w.n++
		return false
	}
	w.err = w.enc.EncodeString(key)
	return w.err == nil
}

func (w *fieldWriter) str(key, v string) {
	if w.key(v == "", key) {
		w.err = w.enc.EncodeString(v)
	}
}

func (w *fieldWriter) int(key string, v int) {
	if w.key(v == 0, key) {
		w.err = w.enc.EncodeInt(int64(v))
	}
}

// uint64 writes as the library writes a uint64 field: always 9 bytes.
func (w *fieldWriter) uint64(key string, v uint64) {
	if w.key(v == 0, key) {
		w.err = w.enc.EncodeUint64(v)
	}
}

func (w *fieldWriter) bool(key string, v bool) {
	if w.key(!v, key) {
		w.err = w.enc.EncodeBool(v)
	}
}

func (w *fieldWriter) strs(key string, v []string) {
	if !w.key(len(v) == 0, key) {
		return
	}
	if w.err = w.enc.EncodeArrayLen(len(v)); w.err != nil {
		return
	}
	for _, s := range v {
		if w.err = w.enc.EncodeString(s); w.err != nil {
			return
		}
	}
}

func (w *fieldWriter) raw(key string, v msgpack.RawMessage) {
	if w.key(len(v) == 0, key) {
		w.err = v.EncodeMsgpack(w.enc)
	}
}

// value writes a field the library encodes itself (a pointer to a struct
// without a codec of its own here, or one with).
func (w *fieldWriter) value(key string, zero bool, v any) {
	if w.key(zero, key) {
		w.err = w.enc.Encode(v)
	}
}

// encodeFields writes a struct as a map of its non-zero fields, in the
// order fields gives them.
func encodeFields(enc *msgpack.Encoder, fields func(w *fieldWriter)) error {
	count := fieldWriter{}
	fields(&count)
	if err := enc.EncodeMapLen(count.n); err != nil {
		return err
	}
	w := fieldWriter{enc: enc}
	fields(&w)
	return w.err
}

// decodeFields reads a map into a struct: field decodes the value of a key
// it knows and reports false for one it does not, which is skipped, as the
// library skips a key no field has. Anything but a map or nil goes to the
// library's reflection, into plain.
func decodeFields(dec *msgpack.Decoder, plain any, field func(key string) (bool, error)) error {
	c, err := dec.PeekCode()
	if err != nil {
		return err
	}
	if !msgpcode.IsFixedMap(c) && c != msgpcode.Map16 && c != msgpcode.Map32 && c != msgpcode.Nil {
		return dec.Decode(plain)
	}
	n, err := dec.DecodeMapLen()
	if err != nil {
		return err
	}
	for range n {
		key, err := dec.DecodeString()
		if err != nil {
			return err
		}
		known, err := field(key)
		if err != nil {
			return err
		}
		if !known {
			if err := dec.Skip(); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeInt, decodeBool and decodeRaw decode as the library does a field
// of that type (a nil RawMessage for a nil value, as its decoder leaves it).
func decodeInt(dec *msgpack.Decoder, v *int) error {
	n, err := dec.DecodeInt64()
	*v = int(n)
	return err
}

// decodeStrs decodes a []string field: nil for nil, empty for an empty
// array, as the library decodes a slice; anything else by the library.
func decodeStrs(dec *msgpack.Decoder, v *[]string) error {
	c, err := dec.PeekCode()
	if err != nil {
		return err
	}
	if !msgpcode.IsFixedArray(c) && c != msgpcode.Array16 && c != msgpcode.Array32 && c != msgpcode.Nil {
		return dec.Decode(v)
	}
	n, err := dec.DecodeArrayLen()
	if err != nil || n < 0 {
		*v = nil
		return err
	}
	*v = make([]string, 0, min(n, 64))
	for range n {
		s, err := dec.DecodeString()
		if err != nil {
			return err
		}
		*v = append(*v, s)
	}
	return nil
}

func decodeRaw(dec *msgpack.Decoder, v *msgpack.RawMessage) error {
	if c, err := dec.PeekCode(); err == nil && c == msgpcode.Nil {
		*v = nil
		return dec.DecodeNil()
	}
	return v.DecodeMsgpack(dec)
}

// decodePtr decodes a pointer field: nil for a nil value, else a new value
// decoded by its own DecodeMsgpack.
func decodePtr[T any, P interface {
	*T
	msgpack.CustomDecoder
}](dec *msgpack.Decoder, v *P) error {
	if c, err := dec.PeekCode(); err == nil && c == msgpcode.Nil {
		*v = nil
		return dec.DecodeNil()
	}
	if *v == nil {
		*v = new(T)
	}
	return (*v).DecodeMsgpack(dec)
}

// EncodeMsgpack writes the request's fields that are set.
func (r Request) EncodeMsgpack(enc *msgpack.Encoder) error {
	return encodeFields(enc, func(w *fieldWriter) {
		w.uint64("id", r.ID)
		w.str("op", r.Op)
		w.raw("args", r.Args)
	})
}

// DecodeMsgpack reads a request.
func (r *Request) DecodeMsgpack(dec *msgpack.Decoder) error {
	*r = Request{}
	return decodeFields(dec, (*plainRequest)(r), func(key string) (bool, error) {
		var err error
		switch key {
		case "id":
			r.ID, err = dec.DecodeUint64()
		case "op":
			r.Op, err = dec.DecodeString()
		case "args":
			err = decodeRaw(dec, &r.Args)
		default:
			return false, nil
		}
		return true, err
	})
}

// EncodeMsgpack writes the reply's fields that are set.
func (r Reply) EncodeMsgpack(enc *msgpack.Encoder) error {
	return encodeFields(enc, func(w *fieldWriter) {
		w.uint64("id", r.ID)
		w.raw("result", r.Result)
		w.value("error", r.Error == nil, r.Error)
	})
}

// DecodeMsgpack reads a reply.
func (r *Reply) DecodeMsgpack(dec *msgpack.Decoder) error {
	*r = Reply{}
	return decodeFields(dec, (*plainReply)(r), func(key string) (bool, error) {
		var err error
		switch key {
		case "id":
			r.ID, err = dec.DecodeUint64()
		case "result":
			err = decodeRaw(dec, &r.Result)
		case "error":
			err = decodePtr(dec, &r.Error)
		default:
			return false, nil
		}
		return true, err
	})
}

// EncodeMsgpack writes the hello's fields that are set.
func (a HelloArgs) EncodeMsgpack(enc *msgpack.Encoder) error {
	return encodeFields(enc, func(w *fieldWriter) {
		w.int("protocol", a.Protocol)
		w.str("client", a.Client)
		w.str("session", a.Session)
	})
}

// DecodeMsgpack reads a hello.
func (a *HelloArgs) DecodeMsgpack(dec *msgpack.Decoder) error {
	*a = HelloArgs{}
	return decodeFields(dec, (*plainHelloArgs)(a), func(key string) (bool, error) {
		var err error
		switch key {
		case "protocol":
			err = decodeInt(dec, &a.Protocol)
		case "client":
			a.Client, err = dec.DecodeString()
		case "session":
			a.Session, err = dec.DecodeString()
		default:
			return false, nil
		}
		return true, err
	})
}

// EncodeMsgpack writes the host's fields that are set.
func (h HostInfo) EncodeMsgpack(enc *msgpack.Encoder) error {
	return encodeFields(enc, func(w *fieldWriter) {
		w.int("protocol", h.Protocol)
		w.str("host_version", h.HostVersion)
		w.str("extension_version", h.ExtensionVersion)
		w.str("extension_build", h.ExtensionBuild)
		w.str("extension_id", h.ExtensionID)
		w.str("profile", h.Profile)
		w.int("pid", h.PID)
		w.str("socket", h.Socket)
		w.str("browser", h.Browser)
		w.str("started", h.Started)
		w.str("warning", h.Warning)
		w.value("launched", h.Launched == nil, h.Launched)
		w.str("left", h.Left)
		w.bool("paused", h.Paused)
	})
}

// DecodeMsgpack reads a host's description.
func (h *HostInfo) DecodeMsgpack(dec *msgpack.Decoder) error {
	*h = HostInfo{}
	return decodeFields(dec, (*plainHostInfo)(h), func(key string) (bool, error) {
		var err error
		switch key {
		case "protocol":
			err = decodeInt(dec, &h.Protocol)
		case "host_version":
			h.HostVersion, err = dec.DecodeString()
		case "extension_version":
			h.ExtensionVersion, err = dec.DecodeString()
		case "extension_build":
			h.ExtensionBuild, err = dec.DecodeString()
		case "extension_id":
			h.ExtensionID, err = dec.DecodeString()
		case "profile":
			h.Profile, err = dec.DecodeString()
		case "pid":
			err = decodeInt(dec, &h.PID)
		case "socket":
			h.Socket, err = dec.DecodeString()
		case "browser":
			h.Browser, err = dec.DecodeString()
		case "started":
			h.Started, err = dec.DecodeString()
		case "warning":
			h.Warning, err = dec.DecodeString()
		case "launched":
			err = decodePtr(dec, &h.Launched)
		case "left":
			h.Left, err = dec.DecodeString()
		case "paused":
			h.Paused, err = dec.DecodeBool()
		default:
			return false, nil
		}
		return true, err
	})
}

// EncodeMsgpack writes the launched browser's fields that are set.
func (l LaunchedBrowser) EncodeMsgpack(enc *msgpack.Encoder) error {
	return encodeFields(enc, func(w *fieldWriter) {
		w.str("profile_dir", l.ProfileDir)
		w.bool("headless", l.Headless)
		w.bool("resume", l.Resume)
	})
}

// DecodeMsgpack reads a launched browser.
func (l *LaunchedBrowser) DecodeMsgpack(dec *msgpack.Decoder) error {
	*l = LaunchedBrowser{}
	return decodeFields(dec, (*plainLaunchedBrowser)(l), func(key string) (bool, error) {
		var err error
		switch key {
		case "profile_dir":
			l.ProfileDir, err = dec.DecodeString()
		case "headless":
			l.Headless, err = dec.DecodeBool()
		case "resume":
			l.Resume, err = dec.DecodeBool()
		default:
			return false, nil
		}
		return true, err
	})
}

// EncodeMsgpack writes the tab list.
func (t TabsResult) EncodeMsgpack(enc *msgpack.Encoder) error {
	return encodeFields(enc, func(w *fieldWriter) {
		if !w.key(len(t.Tabs) == 0, "tabs") {
			return
		}
		if w.err = w.enc.EncodeArrayLen(len(t.Tabs)); w.err != nil {
			return
		}
		for _, tab := range t.Tabs {
			if w.err = tab.EncodeMsgpack(w.enc); w.err != nil {
				return
			}
		}
	})
}

// DecodeMsgpack reads a tab list: no array is a nil list, an empty one an
// empty list, as the library decodes a slice.
func (t *TabsResult) DecodeMsgpack(dec *msgpack.Decoder) error {
	*t = TabsResult{}
	return decodeFields(dec, (*plainTabsResult)(t), func(key string) (bool, error) {
		if key != "tabs" {
			return false, nil
		}
		c, err := dec.PeekCode()
		if err != nil {
			return true, err
		}
		if !msgpcode.IsFixedArray(c) && c != msgpcode.Array16 && c != msgpcode.Array32 && c != msgpcode.Nil {
			return true, dec.Decode(&t.Tabs)
		}
		n, err := dec.DecodeArrayLen()
		if err != nil || n < 0 {
			t.Tabs = nil
			return true, err
		}
		// The count is what the bytes claim: grow as tabs arrive.
		t.Tabs = make([]Tab, 0, min(n, 64))
		for range n {
			var tab Tab
			if err := dec.Decode(&tab); err != nil {
				return true, err
			}
			t.Tabs = append(t.Tabs, tab)
		}
		return true, nil
	})
}

// EncodeMsgpack writes the tab's fields that are set.
func (t Tab) EncodeMsgpack(enc *msgpack.Encoder) error {
	return encodeFields(enc, func(w *fieldWriter) {
		w.int("id", t.ID)
		w.str("url", t.URL)
		w.str("title", t.Title)
		w.bool("active", t.Active)
		w.int("windowId", t.WindowID)
		w.bool("blocked", t.Blocked)
		w.int("opener", t.Opener)
		w.strs("opened_by", t.OpenedBy)
		w.value("dialog", t.Dialog == nil, t.Dialog)
		w.str("owner", t.Owner)
		w.bool("others", t.Others)
		w.bool("owner_idle", t.OwnerIdle)
		w.bool("default", t.Default)
	})
}

// DecodeMsgpack reads a tab.
func (t *Tab) DecodeMsgpack(dec *msgpack.Decoder) error {
	*t = Tab{}
	return decodeFields(dec, (*plainTab)(t), func(key string) (bool, error) {
		var err error
		switch key {
		case "id":
			err = decodeInt(dec, &t.ID)
		case "url":
			t.URL, err = dec.DecodeString()
		case "title":
			t.Title, err = dec.DecodeString()
		case "active":
			t.Active, err = dec.DecodeBool()
		case "windowId":
			err = decodeInt(dec, &t.WindowID)
		case "blocked":
			t.Blocked, err = dec.DecodeBool()
		case "opener":
			err = decodeInt(dec, &t.Opener)
		case "opened_by":
			err = decodeStrs(dec, &t.OpenedBy)
		case "dialog":
			err = dec.Decode(&t.Dialog)
		case "owner":
			t.Owner, err = dec.DecodeString()
		case "others":
			t.Others, err = dec.DecodeBool()
		case "owner_idle":
			t.OwnerIdle, err = dec.DecodeBool()
		case "default":
			t.Default, err = dec.DecodeBool()
		default:
			return false, nil
		}
		return true, err
	})
}

// EncodeMsgpack writes the error's fields that are set.
func (e Error) EncodeMsgpack(enc *msgpack.Encoder) error {
	return encodeFields(enc, func(w *fieldWriter) {
		w.str("code", string(e.Code))
		w.str("boundary", string(e.Boundary))
		w.str("message", e.Message)
		w.str("hint", e.Hint)
		w.value("dialog", e.Dialog == nil, e.Dialog)
		w.str("status", e.Status)
		w.int("tab", e.Tab)
	})
}

// DecodeMsgpack reads an error.
func (e *Error) DecodeMsgpack(dec *msgpack.Decoder) error {
	*e = Error{}
	return decodeFields(dec, (*plainError)(e), func(key string) (bool, error) {
		var err error
		var s string
		switch key {
		case "code":
			s, err = dec.DecodeString()
			e.Code = Code(s)
		case "boundary":
			s, err = dec.DecodeString()
			e.Boundary = Boundary(s)
		case "message":
			e.Message, err = dec.DecodeString()
		case "hint":
			e.Hint, err = dec.DecodeString()
		case "dialog":
			err = dec.Decode(&e.Dialog)
		case "status":
			e.Status, err = dec.DecodeString()
		case "tab":
			e.Tab, err = dec.DecodeInt()
		default:
			return false, nil
		}
		return true, err
	})
}
