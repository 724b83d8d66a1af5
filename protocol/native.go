package protocol

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Limits of the native-messaging channel. Chrome closes the
// channel when a host sends more than 1 MiB, and sends at most 64 MiB.
const (
	MaxToExtension   = 1 << 20
	MaxFromExtension = 64 << 20
)

// NativeReader reads native-messaging frames from Chrome (the host's stdin).
type NativeReader struct {
	r   io.Reader
	max int
	buf bytes.Buffer
}

// NewNativeReader returns a reader that refuses frames over max bytes; max
// <= 0 means MaxFromExtension.
func NewNativeReader(r io.Reader, max int) *NativeReader {
	if max <= 0 {
		max = MaxFromExtension
	}
	return &NativeReader{r: r, max: max}
}

// ReadRaw returns the next frame's JSON bytes, valid until the next call.
// It returns io.EOF at a clean end between frames, ErrShortFrame when the
// stream ends inside one, and ErrFrameTooLarge (without reading the body)
// when the length is over the limit.
func (nr *NativeReader) ReadRaw() ([]byte, error) {
	var hdr [4]byte
	if err := readHeader(nr.r, hdr[:]); err != nil {
		return nil, err
	}
	return readBody(nr.r, &nr.buf, binary.NativeEndian.Uint32(hdr[:]), nr.max)
}

// Read decodes the next frame into v.
func (nr *NativeReader) Read(v any) error {
	raw, err := nr.ReadRaw()
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("protocol: native frame is not a JSON object: %w", err)
	}
	return nil
}

// readBody reads an n-byte frame body into buf, growing it as bytes
// arrive rather than allocating n up front, so a lying header cannot make
// us allocate 64 MiB for a frame that never comes.
func readBody(r io.Reader, buf *bytes.Buffer, n uint32, max int) ([]byte, error) {
	if n == 0 {
		return nil, ErrEmptyFrame
	}
	if uint64(n) > uint64(max) {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, max)
	}
	buf.Reset()
	if buf.Cap() > 4<<20 && int(n) < buf.Cap()/4 {
		// Do not keep one huge snapshot's buffer alive forever.
		*buf = bytes.Buffer{}
	}
	got, err := io.CopyN(buf, r, int64(n))
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: %d of %d body bytes", ErrShortFrame, got, n)
		}
		return nil, err
	}
	return buf.Bytes(), nil
}

// readHeader reads a 4-byte length: io.EOF when the stream ended cleanly
// before it, ErrShortFrame when it ended inside it.
func readHeader(r io.Reader, hdr []byte) error {
	n, err := io.ReadFull(r, hdr)
	if err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%w: %d of 4 header bytes", ErrShortFrame, n)
	}
	return err
}

// NativeWriter writes native-messaging frames to Chrome (the host's stdout).
// It is not safe for concurrent use; the host has one writer goroutine.
type NativeWriter struct {
	w   io.Writer
	max int
}

// NewNativeWriter returns a writer that refuses frames over max bytes; max
// <= 0 means MaxToExtension.
func NewNativeWriter(w io.Writer, max int) *NativeWriter {
	if max <= 0 {
		max = MaxToExtension
	}
	return &NativeWriter{w: w, max: max}
}

// Write encodes v as JSON and writes it as one frame. A frame over the
// limit is refused with ErrFrameTooLarge and nothing is written.
func (nw *NativeWriter) Write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("protocol: encode native frame: %w", err)
	}
	return nw.WriteRaw(body)
}

// WriteRaw writes body, which must be a JSON object, as one frame.
func (nw *NativeWriter) WriteRaw(body []byte) error {
	if len(body) > nw.max {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, len(body), nw.max)
	}
	if len(body) == 0 {
		return ErrEmptyFrame
	}
	frame := make([]byte, 4+len(body))
	binary.NativeEndian.PutUint32(frame, uint32(len(body)))
	copy(frame[4:], body)
	_, err := nw.w.Write(frame)
	return err
}
