package protocol

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

func nativeFrame(body string) []byte {
	b := make([]byte, 4+len(body))
	binary.NativeEndian.PutUint32(b, uint32(len(body)))
	copy(b[4:], body)
	return b
}

func socketFrame(body []byte) []byte {
	b := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(b, uint32(len(body)))
	copy(b[4:], body)
	return b
}

// lyingHeader claims n bytes and delivers none.
func lyingHeader(n uint32, order binary.ByteOrder) []byte {
	b := make([]byte, 4)
	order.PutUint32(b, n)
	return b
}

var nativeReadCases = []struct {
	name    string
	in      []byte
	max     int
	want    []string // the frames' bodies, in order
	wantErr error    // after the frames
}{
	{"one", nativeFrame(`{"type":"hello"}`), 0, []string{`{"type":"hello"}`}, io.EOF},
	{"two", append(nativeFrame(`{"id":1}`), nativeFrame(`{"id":2}`)...), 0, []string{`{"id":1}`, `{"id":2}`}, io.EOF},
	{"empty stream", nil, 0, nil, io.EOF},
	{"short header", []byte{1, 0}, 0, nil, ErrShortFrame},
	{"truncated body", nativeFrame(`{"id":1}`)[:7], 0, nil, ErrShortFrame},
	{"lying header", lyingHeader(60<<20, binary.NativeEndian), 0, nil, ErrShortFrame},
	{"over the limit", lyingHeader(65<<20, binary.NativeEndian), 0, nil, ErrFrameTooLarge},
	{"over a small limit", nativeFrame(`{"id":12345}`), 8, nil, ErrFrameTooLarge},
	{"zero length", lyingHeader(0, binary.NativeEndian), 0, nil, ErrEmptyFrame},
	{"max uint32", lyingHeader(0xffffffff, binary.NativeEndian), 0, nil, ErrFrameTooLarge},
}

func TestNativeReader(t *testing.T) {
	for _, tc := range nativeReadCases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewNativeReader(bytes.NewReader(tc.in), tc.max)
			for i, want := range tc.want {
				got, err := r.ReadRaw()
				if err != nil {
					t.Fatalf("frame %d: %v", i, err)
				}
				if string(got) != want {
					t.Fatalf("frame %d = %q, want %q", i, got, want)
				}
			}
			_, err := r.ReadRaw()
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
		})
	}
}

func TestNativeReaderDecodes(t *testing.T) {
	r := NewNativeReader(bytes.NewReader(nativeFrame(`{"id":7,"type":"tabs","params":{"a":1}}`)), 0)
	var msg NativeMessage
	if err := r.Read(&msg); err != nil {
		t.Fatal(err)
	}
	if msg.ID != 7 || msg.Type != "tabs" || string(msg.Params) != `{"a":1}` {
		t.Fatalf("decoded %+v", msg)
	}
	r = NewNativeReader(bytes.NewReader(nativeFrame(`not json`)), 0)
	if err := r.Read(&msg); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Fatalf("not JSON: err = %v", err)
	}
}

func TestNativeWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewNativeWriter(&buf, 0)
	if err := w.Write(NativeMessage{ID: 3, Type: "snapshot"}); err != nil {
		t.Fatal(err)
	}
	got, err := NewNativeReader(&buf, 0).ReadRaw()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"id":3,"type":"snapshot"}` {
		t.Fatalf("round trip = %s", got)
	}
	// Over 1 MiB: refused, and nothing at all is written.
	buf.Reset()
	big := strings.Repeat("x", MaxToExtension)
	err = w.Write(map[string]string{"text": big})
	if !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("oversized write: err = %v", err)
	}
	if buf.Len() != 0 {
		t.Fatalf("oversized write left %d bytes on the wire", buf.Len())
	}
	// Exactly the limit is allowed.
	body := `{"t":"` + strings.Repeat("y", MaxToExtension-8) + `"}`
	if len(body) != MaxToExtension {
		t.Fatalf("test body is %d bytes", len(body))
	}
	if err := w.WriteRaw([]byte(body)); err != nil {
		t.Fatalf("write of exactly 1 MiB: %v", err)
	}
}

func mustMsgpack(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestSocketRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewSocketWriter(&buf, 0)
	args := mustMsgpack(t, SnapshotArgs{Tab: 4, Mode: ModeContent, Budget: 500, After: "@e9"})
	if err := w.Write(Request{ID: 11, Op: OpSnapshot, Args: args}); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(Reply{ID: 11, Error: &Error{Code: CodeStaleRef, Boundary: BoundaryNode, Message: "gone", Hint: "take a new snapshot"}}); err != nil {
		t.Fatal(err)
	}
	r := NewSocketReader(&buf, 0)
	var req Request
	if err := r.Read(&req); err != nil {
		t.Fatal(err)
	}
	var got SnapshotArgs
	if err := Unmarshal(req.Args, &got); err != nil {
		t.Fatal(err)
	}
	if req.ID != 11 || req.Op != OpSnapshot || got != (SnapshotArgs{Tab: 4, Mode: ModeContent, Budget: 500, After: "@e9"}) {
		t.Fatalf("request = %+v args %+v", req, got)
	}
	var rep Reply
	if err := r.Read(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.ID != 11 || rep.Error == nil || !errors.Is(rep.Error, ErrStaleRef) || rep.Error.Hint != "take a new snapshot" {
		t.Fatalf("reply = %+v", rep)
	}
	if _, err := r.ReadRaw(); err != io.EOF {
		t.Fatalf("after the last frame: %v, want io.EOF", err)
	}
}

// A value decoded into again holds what the second frame says, nothing
// the first left: the checkbox unchecked since the first snapshot has no
// states, and the element now first has no value.
func TestUnmarshalIntoAUsedValue(t *testing.T) {
	note := "Duplicate order"
	first := mustMsgpack(t, Snapshot{Frames: []Frame{{Elements: []Element{
		{Ref: "@e2", Role: "textbox", Name: "Note", Value: &note},
		{Ref: "@e3", Role: "checkbox", Name: "Remember me", States: []string{"checked"}},
	}}}})
	second := mustMsgpack(t, Snapshot{Frames: []Frame{{Elements: []Element{
		{Ref: "@e4", Role: "menuitem", Name: "Edit order"},
		{Ref: "@e3", Role: "checkbox", Name: "Remember me"},
	}}}})
	var snap Snapshot
	if err := Unmarshal(first, &snap); err != nil {
		t.Fatal(err)
	}
	if err := Unmarshal(second, &snap); err != nil {
		t.Fatal(err)
	}
	els := snap.Frames[0].Elements
	if els[0].Value != nil || els[1].States != nil {
		t.Fatalf("the second decode kept the first's fields: %+v", els)
	}
}

var socketReadCases = []struct {
	name    string
	in      []byte
	wantErr error
}{
	{"short header", []byte{0, 0}, ErrShortFrame},
	{"truncated body", socketFrame([]byte{0x81, 0xa2, 'i', 'd', 1})[:6], ErrShortFrame},
	{"lying header", lyingHeader(50<<20, binary.BigEndian), ErrShortFrame},
	{"over the limit", lyingHeader(MaxReplyFrame+1, binary.BigEndian), ErrFrameTooLarge},
	{"zero length", lyingHeader(0, binary.BigEndian), ErrEmptyFrame},
}

func TestSocketReaderRefuses(t *testing.T) {
	for _, tc := range socketReadCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSocketReader(bytes.NewReader(tc.in), 0).ReadRaw()
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
		})
	}
	// A frame that is not msgpack is a decode error, not a panic.
	r := NewSocketReader(bytes.NewReader(socketFrame([]byte{0xc1})), 0)
	var req Request
	if err := r.Read(&req); err == nil {
		t.Fatal("0xc1 (never used in msgpack) decoded")
	}
}

func TestSocketWriterRefusesLarge(t *testing.T) {
	var buf bytes.Buffer
	w := NewSocketWriter(&buf, 16)
	err := w.Write(Request{ID: 1, Op: "x", Args: msgpack.RawMessage(bytes.Repeat([]byte{0xc0}, 40))})
	if !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("err = %v", err)
	}
	if buf.Len() != 0 {
		t.Fatalf("wrote %d bytes of a refused frame", buf.Len())
	}
}

func TestAsError(t *testing.T) {
	if AsError(nil) != nil {
		t.Fatal("AsError(nil) != nil")
	}
	e := AsError(errors.New("boom"))
	if e.Code != CodeInternal || e.Message != "boom" {
		t.Fatalf("plain error → %+v", e)
	}
	e = AsError(&Error{Code: "made_up", Message: "x"})
	if e.Code != CodeInternal {
		t.Fatalf("unknown code kept: %+v", e)
	}
	stale := Errorf(CodeStaleRef, BoundaryNode, "take a new snapshot", "@e3 is gone")
	if got := stale.Error(); got != "stale_ref: @e3 is gone (take a new snapshot)" {
		t.Fatalf("Error() = %q", got)
	}
	if !errors.Is(stale, ErrStaleRef) || errors.Is(stale, ErrUnknownRef) {
		t.Fatal("errors.Is by code is wrong")
	}
}

// FuzzNativeReader: any byte stream yields frames or an error, never a
// panic or a hang, and never a frame over the limit.
func FuzzNativeReader(f *testing.F) {
	for _, tc := range nativeReadCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewNativeReader(bytes.NewReader(in), 1<<16)
		for i := 0; i < 64; i++ {
			var msg NativeMessage
			raw, err := r.ReadRaw()
			if err != nil {
				return
			}
			if len(raw) > 1<<16 {
				t.Fatalf("frame of %d bytes over the limit", len(raw))
			}
			_ = NewNativeReader(bytes.NewReader(nativeFrame(string(raw))), 0).Read(&msg)
		}
	})
}

// FuzzSocketReader: the same for socket frames, decoded as requests.
func FuzzSocketReader(f *testing.F) {
	for _, tc := range socketReadCases {
		f.Add(tc.in)
	}
	var buf bytes.Buffer
	w := NewSocketWriter(&buf, 0)
	_ = w.Write(Request{ID: 1, Op: OpHello, Args: mustMsgpack(f, HelloArgs{Protocol: Version})})
	_ = w.Write(Request{ID: 2, Op: OpAct, Args: mustMsgpack(f, ActArgs{Action: ActClick, Target: "@e3"})})
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewSocketReader(bytes.NewReader(in), 1<<16)
		for i := 0; i < 64; i++ {
			var req Request
			if err := r.Read(&req); err != nil {
				if errors.Is(err, ErrShortFrame) || errors.Is(err, ErrFrameTooLarge) || errors.Is(err, ErrEmptyFrame) || err == io.EOF {
					return
				}
				continue // a bad body: the framing is intact, keep reading
			}
			var args ActArgs
			_ = Unmarshal(req.Args, &args)
		}
	})
}

func benchPayload() NativeMessage {
	var sb strings.Builder
	sb.WriteString(`{"frames":[`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"id":` + strings.Repeat("1", 3) + `,"role":"button","name":"Add to cart — item number","states":["disabled"]}`)
	}
	sb.WriteString(`]}`)
	return NativeMessage{ID: 1, Result: []byte(sb.String())}
}

func BenchmarkNativeCodec(b *testing.B) {
	msg := benchPayload()
	var buf bytes.Buffer
	w := NewNativeWriter(&buf, MaxFromExtension)
	if err := w.Write(msg); err != nil {
		b.Fatal(err)
	}
	frame := append([]byte(nil), buf.Bytes()...)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	rd := bytes.NewReader(nil)
	r := NewNativeReader(rd, 0)
	for b.Loop() {
		buf.Reset()
		if err := w.Write(msg); err != nil {
			b.Fatal(err)
		}
		rd.Reset(frame)
		var got NativeMessage
		if err := r.Read(&got); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSocketCodec(b *testing.B) {
	snap := Snapshot{Tab: TabRef{ID: 1, URL: "http://x", Title: "t"}, Text: strings.Repeat("@e123: [button 'Add to cart']\n", 1000)}
	for i := 0; i < 1000; i++ {
		snap.Frames = append(snap.Frames, Frame{FrameID: i % 10, Elements: []Element{{Ref: "@e123", Role: "button", Name: "Add to cart"}}})
	}
	raw := mustMsgpack(b, snap)
	var buf bytes.Buffer
	w := NewSocketWriter(&buf, 0)
	if err := w.Write(Reply{ID: 1, Result: raw}); err != nil {
		b.Fatal(err)
	}
	frame := append([]byte(nil), buf.Bytes()...)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	rd := bytes.NewReader(nil)
	r := NewSocketReader(rd, 0)
	for b.Loop() {
		buf.Reset()
		if err := w.Write(Reply{ID: 1, Result: raw}); err != nil {
			b.Fatal(err)
		}
		rd.Reset(frame)
		var rep Reply
		if err := r.Read(&rep); err != nil {
			b.Fatal(err)
		}
		var got Snapshot
		if err := Unmarshal(rep.Result, &got); err != nil {
			b.Fatal(err)
		}
	}
}
