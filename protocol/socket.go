package protocol

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"reflect"

	"github.com/vmihailenco/msgpack/v5"
)

// Limits of agent-socket frames, one per direction.
const (
	// MaxReplyFrame bounds a reply (host to agent): large enough for a
	// full screenshot or a 20,000-element snapshot, small enough that a
	// confused host cannot make a client buffer gigabytes.
	MaxReplyFrame = 64 << 20
	// MaxRequestFrame bounds a request (agent to host). Requests are
	// small: the largest carries text to type or fill, which the host
	// passes on to the extension in one native message, itself at most
	// MaxToExtension; a larger request could never be carried out.
	MaxRequestFrame = MaxToExtension
)

// SocketReader reads big-endian length-prefixed msgpack frames.
type SocketReader struct {
	r   io.Reader
	max int
	buf bytes.Buffer
}

// NewSocketReader returns a reader that refuses frames over max bytes; max
// <= 0 means MaxReplyFrame. The host reads requests with MaxRequestFrame.
func NewSocketReader(r io.Reader, max int) *SocketReader {
	if max <= 0 {
		max = MaxReplyFrame
	}
	return &SocketReader{r: r, max: max}
}

// ReadRaw returns the next frame's msgpack bytes, valid until the next call.
// Errors are those of NativeReader.ReadRaw.
func (sr *SocketReader) ReadRaw() ([]byte, error) {
	var hdr [4]byte
	if err := readHeader(sr.r, hdr[:]); err != nil {
		return nil, err
	}
	return readBody(sr.r, &sr.buf, binary.BigEndian.Uint32(hdr[:]), sr.max)
}

// Read decodes the next frame into v.
func (sr *SocketReader) Read(v any) error {
	raw, err := sr.ReadRaw()
	if err != nil {
		return err
	}
	return Unmarshal(raw, v)
}

// Unmarshal decodes msgpack bytes into v using the json struct tags, the
// same tags the writer encodes with, so one set of tags serves the socket,
// the CLI's --json output and the native-messaging JSON. raw must pass
// Check first: the decoder recurses once per nesting level and sizes
// slices by the counts the bytes claim, so only bytes that hold what they
// claim reach it.
//
// v ends up holding what raw says and nothing else: it is zeroed first.
// The decoder alone would keep what a reused v held wherever raw leaves a
// field out (an element's omitted value or states, under the element that
// came at that index in the last snapshot decoded into it), so a caller
// reading every snapshot into one variable would see states and values
// the page no longer has.
func Unmarshal(raw []byte, v any) error {
	if err := Check(raw); err != nil {
		return err
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero()
	}
	dec := msgpack.NewDecoder(bytes.NewReader(raw))
	dec.SetCustomStructTag("json")
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("protocol: bad msgpack frame: %w", err)
	}
	return nil
}

// Marshal encodes v as msgpack using the json struct tags.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.SetCustomStructTag("json")
	enc.SetOmitEmpty(true)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// SocketWriter writes big-endian length-prefixed msgpack frames. It is not
// safe for concurrent use.
type SocketWriter struct {
	w   io.Writer
	max int
	buf bytes.Buffer
	enc *msgpack.Encoder
}

// NewSocketWriter returns a writer that refuses frames over max bytes; max
// <= 0 means MaxReplyFrame. A client writes requests with MaxRequestFrame.
func NewSocketWriter(w io.Writer, max int) *SocketWriter {
	if max <= 0 {
		max = MaxReplyFrame
	}
	sw := &SocketWriter{w: w, max: max}
	sw.enc = msgpack.NewEncoder(&sw.buf)
	sw.enc.SetCustomStructTag("json")
	sw.enc.SetOmitEmpty(true)
	return sw
}

// Write encodes v and writes it as one frame; a frame over the limit is
// refused with ErrFrameTooLarge and nothing is written.
func (sw *SocketWriter) Write(v any) error {
	sw.buf.Reset()
	sw.buf.Write([]byte{0, 0, 0, 0})
	if err := sw.enc.Encode(v); err != nil {
		return fmt.Errorf("protocol: encode socket frame: %w", err)
	}
	b := sw.buf.Bytes()
	n := len(b) - 4
	if n > sw.max {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, sw.max)
	}
	binary.BigEndian.PutUint32(b, uint32(n))
	_, err := sw.w.Write(b)
	return err
}
