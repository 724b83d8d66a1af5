package client

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// fakeHost listens on a socket in a temp dir and answers each request
// with answer(req); it returns the HostInfo to dial.
func fakeHost(t *testing.T, answer func(req protocol.Request) protocol.Reply) protocol.HostInfo {
	t.Helper()
	dir, err := os.MkdirTemp("", "gripc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "h.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := protocol.NewSocketReader(c, protocol.MaxRequestFrame)
				w := protocol.NewSocketWriter(c, 0)
				for {
					var req protocol.Request
					if err := r.Read(&req); err != nil {
						return
					}
					if req.Op == protocol.OpHello {
						raw, _ := protocol.Marshal(protocol.HostInfo{Protocol: protocol.Version, Profile: "p"})
						_ = w.Write(protocol.Reply{ID: req.ID, Result: raw})
						continue
					}
					_ = w.Write(answer(req))
				}
			}()
		}
	}()
	return protocol.HostInfo{Profile: "p", Socket: path}
}

func mustDial(t *testing.T, info protocol.HostInfo) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestHostileReplies: a reply nested deeper than protocol.MaxDepth, or one
// claiming more than it holds, ends the connection with a clear error,
// before the decoder recurses or allocates by the claim. A million nested
// arrays (1 MB) cost msgpack's recursive decoder over 100 MiB of stack, a
// few million more a fatal stack overflow; an array claiming 2^24 frames
// in 13 bytes, decoded as a snapshot, allocated 2 GiB.
func TestHostileReplies(t *testing.T) {
	n := uint32(1 << 24)
	tests := []struct {
		name   string
		result []byte
		want   error
	}{
		{"nested a million deep", append(bytes.Repeat([]byte{0x91}, 1_000_000), 0xc0), protocol.ErrTooDeep},
		{"claims 2^24 frames in 13 bytes", []byte{0x81, 0xa6, 'f', 'r', 'a', 'm', 'e', 's', 0xdd, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, protocol.ErrBadMsgpack},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := fakeHost(t, func(req protocol.Request) protocol.Reply { return protocol.Reply{ID: req.ID, Result: tc.result} })
			c := mustDial(t, info)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var snap protocol.Snapshot
			err := c.Call(context.Background(), protocol.OpSnapshot, protocol.SnapshotArgs{}, &snap)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrConnectionLost) || !strings.Contains(err.Error(), tc.want.Error()) {
				t.Errorf("err = %v, want the connection lost to %q", err, tc.want)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
				t.Errorf("a %d-byte reply made the client allocate %d bytes", len(tc.result), got)
			}
			if got := after.StackSys - before.StackSys; int64(got) > 16<<20 {
				t.Errorf("a %d-byte reply grew the stacks by %d bytes", len(tc.result), got)
			}
		})
	}
}

// TestRequestOverTheLimit: a request the host would refuse for its size is
// refused here, with too_large, and the connection stays usable.
func TestRequestOverTheLimit(t *testing.T) {
	info := fakeHost(t, func(req protocol.Request) protocol.Reply { return protocol.Reply{ID: req.ID} })
	c := mustDial(t, info)
	err := c.Call(context.Background(), protocol.OpAct,
		protocol.ActArgs{Action: protocol.ActFill, Target: "@e1", Text: strings.Repeat("x", protocol.MaxRequestFrame)}, nil)
	if !errors.Is(err, protocol.ErrTooLarge) {
		t.Fatalf("err = %v, want too_large", err)
	}
	if err := c.Call(context.Background(), protocol.OpStatus, struct{}{}, nil); err != nil {
		t.Fatalf("the next call: %v", err)
	}
}

// A CLI that finds no host says which browser's extension left and when,
// from the note its host wrote as the channel closed; without a note it
// says no browser is connected.
func TestNoHostSaysWhichBrowserLeft(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	_, err := Connect(ctx, Options{RuntimeDir: dir, Wait: 10 * time.Millisecond})
	if perr := protocol.AsError(err); perr.Code != protocol.CodeNoBrowser || strings.Contains(perr.Message, "closed its connection") {
		t.Fatalf("no note: %v", err)
	}
	left := time.Now().Add(-90 * time.Second).UTC().Format(time.RFC3339)
	for _, n := range []struct{ profile, left string }{{"old1", "2020-01-01T00:00:00Z"}, {"p2", left}} {
		b := []byte(`{"profile":"` + n.profile + `","pid":7,"left":"` + n.left + `"}`)
		if err := os.WriteFile(filepath.Join(dir, n.profile+protocol.LeftSuffix), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, err = Connect(ctx, Options{RuntimeDir: dir, Wait: 10 * time.Millisecond})
	perr := protocol.AsError(err)
	if perr.Code != protocol.CodeNoBrowser || perr.Boundary != protocol.BoundaryBrowser ||
		!strings.Contains(perr.Message, "browser profile p2 closed its connection 1m3") || !strings.Contains(perr.Hint, "chrome://extensions") {
		t.Fatalf("with notes: %+v", perr)
	}
	// --profile names whose note counts.
	_, err = Connect(ctx, Options{RuntimeDir: dir, Profile: "old1", Wait: 10 * time.Millisecond})
	if perr := protocol.AsError(err); !strings.Contains(perr.Message, "browser profile old1 closed its connection") {
		t.Fatalf("--profile old1: %+v", perr)
	}
}

// TestRetriedOperations pins which operations a Session sends again on a
// new host (their rows in protocol.Operations say Retry): repeating one
// that acts, asks the person or waits would do it twice.
func TestRetriedOperations(t *testing.T) {
	var got []string
	for _, row := range protocol.Operations() {
		if retried(row.Name) {
			got = append(got, row.Name)
		}
		if row.Retry && row.Acts {
			t.Errorf("%s acts, and is retried", row.Name)
		}
	}
	want := []string{protocol.OpHello, protocol.OpStatus, protocol.OpTabs, protocol.OpSnapshot, protocol.OpRead, protocol.OpScreenshot,
		protocol.OpPause, protocol.OpLog, protocol.OpPolicy,
		protocol.OpConsole, protocol.OpNetwork, protocol.OpNetworkBody, protocol.OpPDF, protocol.OpScreenshotShape}
	if !slices.Equal(got, want) {
		t.Errorf("retried\n got %v\nwant %v", got, want)
	}
	if retried("format_disk") {
		t.Error("an operation the table does not know is retried")
	}
}
