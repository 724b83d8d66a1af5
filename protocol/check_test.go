package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// nested returns n one-element arrays around nil: 0x91 0x91 … 0xc0.
func nested(n int) []byte {
	return append(bytes.Repeat([]byte{0x91}, n), 0xc0)
}

// withArgs wraps args as the args of a request {id:1, op:"status", args}.
func withArgs(args []byte) []byte {
	b := []byte{0x83, 0xa2, 'i', 'd', 0x01, 0xa2, 'o', 'p', 0xa6, 's', 't', 'a', 't', 'u', 's', 0xa4, 'a', 'r', 'g', 's'}
	return append(b, args...)
}

// claim13 is the 13-byte reply body of the security review: a snapshot
// {"frames": array32 claiming n elements} and nothing else.
func claim13(n uint32) []byte {
	return []byte{0x81, 0xa6, 'f', 'r', 'a', 'm', 'e', 's', 0xdd, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
}

var checkCases = []struct {
	name    string
	in      []byte
	wantErr error // nil: well-formed
}{
	{"nil", []byte{0xc0}, nil},
	{"fixints", []byte{0x92, 0x7f, 0xe0}, nil},
	{"every scalar", []byte{0xdc, 0, 16, 0xc2, 0xc3, 0xcc, 1, 0xcd, 1, 2, 0xce, 1, 2, 3, 4, 0xcf, 1, 2, 3, 4, 5, 6, 7, 8,
		0xd0, 1, 0xd1, 1, 2, 0xd2, 1, 2, 3, 4, 0xd3, 1, 2, 3, 4, 5, 6, 7, 8, 0xca, 1, 2, 3, 4, 0xcb, 1, 2, 3, 4, 5, 6, 7, 8,
		0xa1, 'x', 0xd9, 1, 'x', 0xda, 0, 1, 'x', 0xdb, 0, 0, 0, 1, 'x'}, nil},
	{"bin", []byte{0x93, 0xc4, 1, 9, 0xc5, 0, 1, 9, 0xc6, 0, 0, 0, 1, 9}, nil},
	{"empty containers", []byte{0x94, 0x90, 0x80, 0xdc, 0, 0, 0xdf, 0, 0, 0, 0}, nil},
	{"map16 and array32", []byte{0x92, 0xde, 0, 1, 0xa1, 'k', 0x02, 0xdd, 0, 0, 0, 2, 0xc0, 0xc0}, nil},
	{"a request", withArgs([]byte{0x81, 0xa1, 'a', 0x01}), nil},
	{"nested at the limit", nested(MaxDepth), nil},
	{"empty array at the limit", append(bytes.Repeat([]byte{0x91}, MaxDepth-1), 0x90), nil},

	{"empty", nil, ErrBadMsgpack},
	{"never used byte", []byte{0xc1}, ErrBadMsgpack},
	{"data after the value", []byte{0xc0, 0xc0}, ErrBadMsgpack},
	{"truncated uint64", []byte{0xcf, 1, 2, 3}, ErrBadMsgpack},
	{"truncated str8 length", []byte{0xd9}, ErrBadMsgpack},
	// Extension types: grip never sends them, and each has decoding code
	// of its own (a timestamp, say) that no request needs to reach.
	{"fixext 1", []byte{0xd4, 1, 9}, ErrBadMsgpack},
	{"fixext 16", []byte{0xd8, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, ErrBadMsgpack},
	{"timestamp", []byte{0xd6, 0xff, 0, 0, 0, 0}, ErrBadMsgpack},
	{"ext8", []byte{0xc7, 1, 5, 9}, ErrBadMsgpack},
	{"ext32 claims 4 GiB", []byte{0xc9, 0xff, 0xff, 0xff, 0xff, 1, 2}, ErrBadMsgpack},
	{"array short of elements", []byte{0x93, 0x01, 0x02}, ErrBadMsgpack},
	{"map short of a value", []byte{0x81, 0x01}, ErrBadMsgpack},
	{"str32 claims 4 GiB", []byte{0xdb, 0xff, 0xff, 0xff, 0xff, 'x'}, ErrBadMsgpack},
	{"bin32 claims more than is left", []byte{0xc6, 0, 0, 0, 9, 1, 2}, ErrBadMsgpack},
	{"array32 claims 2^31 elements", claim13(1 << 31), ErrBadMsgpack},
	{"array16 claims more than is left", []byte{0xdc, 0x01, 0x00, 0xc0, 0xc0}, ErrBadMsgpack},
	{"map32 claims 2^32-1 pairs", []byte{0xdf, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02}, ErrBadMsgpack},
	{"map claims pairs of one byte", []byte{0x82, 0x01, 0x02, 0x03}, ErrBadMsgpack},
	{"nested one past the limit", nested(MaxDepth + 1), ErrTooDeep},
	{"empty array past the limit", append(bytes.Repeat([]byte{0x91}, MaxDepth), 0x90), ErrTooDeep},
	{"maps nested past the limit", append(bytes.Repeat([]byte{0x81, 0xc0}, MaxDepth+1), 0xc0), ErrTooDeep},
	{"deep args in a request", withArgs(nested(100_000)), ErrTooDeep},
}

func TestCheckMsgpack(t *testing.T) {
	for _, tc := range checkCases {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.in)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("Check = %v, want nil", err)
				}
				if derr := msgpackSkips(tc.in); derr != nil {
					t.Fatalf("Check passed what msgpack refuses: %v", derr)
				}
				return
			}
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Check = %v, want %v", err, tc.wantErr)
			}
		})
	}
}

// TestCheckPassesOurMessages: everything grip writes on the socket passes.
func TestCheckPassesOurMessages(t *testing.T) {
	v := "a@b.c"
	snap := Snapshot{Tab: TabRef{ID: 1, URL: "http://x/", Title: "X"}, Epoch: 3,
		Frames: []Frame{{FrameID: 0, DocumentID: "D", URL: "http://x/",
			Elements: []Element{{Ref: "@e1", Role: "textbox", Name: "Email", Value: &v, States: []string{"required"}}}}},
		SkippedFrames: []SkippedFrame{{FrameID: 7, Reason: "blank"}}, Tokens: 9, Budget: 40000, Text: "…"}
	act := ActionResult{OK: true, Changes: Changes{Added: []string{"@e2"}, Gone: []string{}}, Snapshot: &snap}
	for _, m := range []any{
		snap, act, Status{LastErrors: []string{"x"}, LastSnapshot: &SnapshotInfo{}},
		TabsResult{Tabs: []Tab{{ID: 1}}}, ScreenshotResult{PNG: bytes.Repeat([]byte{1}, 70000)},
		Reply{ID: 1, Result: mustMsgpack(t, act)}, Reply{ID: 2, Error: &Error{Code: CodeStaleRef, Message: "x"}},
		Request{ID: 1, Op: OpAct, Args: mustMsgpack(t, ActArgs{Action: ActFill, Target: "@e1", Text: strings.Repeat("é", 100000)})},
	} {
		if err := Check(mustMsgpack(t, m)); err != nil {
			t.Errorf("%T: %v", m, err)
		}
	}
}

// TestUnmarshalRefusesDeepNesting: a request whose args nest deeper than
// MaxDepth is refused before any decoding. msgpack decodes (and skips)
// nested values by recursion: 100,000 levels cost tens of MB of stack, a
// few million a fatal stack overflow that no recover catches.
func TestUnmarshalRefusesDeepNesting(t *testing.T) {
	raw := withArgs(nested(100_000))
	var req Request
	err := Unmarshal(raw, &req)
	if !errors.Is(err, ErrTooDeep) {
		t.Fatalf("Unmarshal of 100,000 nested arrays: err = %v, want ErrTooDeep", err)
	}
	// Through the socket reader too.
	r := NewSocketReader(bytes.NewReader(socketFrame(raw)), MaxRequestFrame)
	if err := r.Read(&req); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("SocketReader.Read: err = %v, want ErrTooDeep", err)
	}
}

// TestUnmarshalRefusesClaimsBeyondTheBytes: a 13-byte reply whose array
// header claims 2^20 frames must not make the decoder allocate them
// (msgpack's allocation limit does not cover typed slices: 2^31 claimed
// cost 2 GiB).
func TestUnmarshalRefusesClaimsBeyondTheBytes(t *testing.T) {
	raw := claim13(1 << 20)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var snap Snapshot
	err := Unmarshal(raw, &snap)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrBadMsgpack) {
		t.Errorf("err = %v, want ErrBadMsgpack", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("decoding 13 bytes allocated %d bytes", got)
	}
}

// TestRequestFrameLimit: a request reader refuses a frame over
// MaxRequestFrame before reading it; a reply reader takes up to
// MaxReplyFrame.
func TestRequestFrameLimit(t *testing.T) {
	big := socketFrame(mustMsgpack(t, Request{ID: 1, Op: OpAct,
		Args: mustMsgpack(t, ActArgs{Action: ActFill, Target: "@e1", Text: strings.Repeat("x", MaxRequestFrame)})}))
	_, err := NewSocketReader(bytes.NewReader(big), MaxRequestFrame).ReadRaw()
	if !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("request reader: err = %v, want ErrFrameTooLarge", err)
	}
	if _, err := NewSocketReader(bytes.NewReader(big), 0).ReadRaw(); err != nil {
		t.Fatalf("reply reader: %v", err)
	}
	// The writer of requests refuses it too, writing nothing.
	var buf bytes.Buffer
	err = NewSocketWriter(&buf, MaxRequestFrame).Write(Request{ID: 1, Op: OpAct,
		Args: mustMsgpack(t, ActArgs{Text: strings.Repeat("x", MaxRequestFrame)})})
	if !errors.Is(err, ErrFrameTooLarge) || buf.Len() != 0 {
		t.Fatalf("request writer: err = %v, %d bytes written", err, buf.Len())
	}
}

// msgpackSkips reports whether msgpack's own decoder reads in as exactly
// one value.
func msgpackSkips(in []byte) error {
	r := bytes.NewReader(in)
	if err := msgpack.NewDecoder(r).Skip(); err != nil {
		return err
	}
	if r.Len() != 0 {
		return fmt.Errorf("%d bytes after the value", r.Len())
	}
	return nil
}

// FuzzCheck: Check never panics; what it passes, msgpack's own decoder
// reads as exactly one value, and decoding it as a request, a snapshot or
// an empty interface does not panic.
func FuzzCheck(f *testing.F) {
	for _, tc := range checkCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if err := Check(in); err != nil {
			if !errors.Is(err, ErrBadMsgpack) && !errors.Is(err, ErrTooDeep) {
				t.Fatalf("error %v wraps neither ErrBadMsgpack nor ErrTooDeep", err)
			}
			return
		}
		if err := msgpackSkips(in); err != nil {
			t.Fatalf("Check passed %x, msgpack refuses it: %v", in, err)
		}
		var v any
		_ = Unmarshal(in, &v)
		var req Request
		_ = Unmarshal(in, &req)
		var snap Snapshot
		_ = Unmarshal(in, &snap)
	})
}
