package host

import (
	"bytes"
	"encoding/binary"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// TestSocketRefusesHostileFrames: a request over the request limit, or
// one nested deeper than the decoder may recurse, gets a clear refusal;
// the host stays up and serves the next client.
func TestSocketRefusesHostileFrames(t *testing.T) {
	_, done, dirs := startHost(t, "profhostile")
	info := waitPublished(t, dirs, "profhostile")
	hello := socketFrame(t, protocol.Request{ID: 1, Op: protocol.OpHello, Args: msgpackArgs(t, protocol.HelloArgs{Protocol: protocol.Version})})
	// {id:2, op:"status", args: 0x91 × n, nil}: status ignores its args,
	// so only the reader and the decoder stand between it and a reply.
	deep := func(n int) []byte {
		body := []byte{0x83, 0xa2, 'i', 'd', 0x02, 0xa2, 'o', 'p', 0xa6, 's', 't', 'a', 't', 'u', 's', 0xa4, 'a', 'r', 'g', 's'}
		body = append(body, bytes.Repeat([]byte{0x91}, n)...)
		body = append(body, 0xc0)
		frame := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
		return append(frame, body...)
	}
	big := socketFrame(t, protocol.Request{ID: 2, Op: protocol.OpStatus,
		Args: msgpackArgs(t, map[string]string{"pad": strings.Repeat("x", protocol.MaxRequestFrame)})})
	tests := []struct {
		name  string
		frame []byte
		code  protocol.Code
		says  string
	}{
		{"over the request limit", big, protocol.CodeTooLarge, "frame too large"},
		{"args nested 100,000 deep", deep(100_000), protocol.CodeBadRequest, "nested"},
		{"args nested one past the limit", deep(protocol.MaxDepth), protocol.CodeBadRequest, "nested"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("unix", info.Socket)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(20 * time.Second))
			go c.Write(append(append([]byte(nil), hello...), tc.frame...)) // the host may hang up before reading it all
			r := protocol.NewSocketReader(c, 0)
			var rep protocol.Reply
			if err := r.Read(&rep); err != nil || rep.ID != 1 || rep.Error != nil {
				t.Fatalf("hello: %+v, %v", rep, err)
			}
			rep = protocol.Reply{}
			if err := r.Read(&rep); err != nil {
				t.Fatalf("no reply to the refused frame: %v", err)
			}
			if rep.Error == nil || rep.Error.Code != tc.code || !strings.Contains(rep.Error.Message, tc.says) {
				t.Fatalf("reply = %+v (error %+v), want %s saying %q", rep, rep.Error, tc.code, tc.says)
			}
			select {
			case err := <-done:
				t.Fatalf("host exited: %v", err)
			default:
			}
			checkServes(t, info.Socket)
		})
	}
	// One level less than the limit is served (args nest one deeper than
	// the request map itself).
	c, err := net.Dial("unix", info.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := c.Write(append(append([]byte(nil), hello...), deep(protocol.MaxDepth-1)...)); err != nil {
		t.Fatal(err)
	}
	r := protocol.NewSocketReader(c, 0)
	for id := uint64(1); id <= 2; id++ {
		var rep protocol.Reply
		if err := r.Read(&rep); err != nil || rep.ID != id || rep.Error != nil {
			t.Fatalf("request %d at the depth limit: %+v (error %+v), %v", id, rep, rep.Error, err)
		}
	}
}
