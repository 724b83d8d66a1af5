package host

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// Security properties of the host that need no browser: the socket's
// peer-uid check (with a real client of another uid, run through setpriv),
// no TCP listener, and a reader that a misbehaving extension cannot stall.

const (
	socketClientEnv = "GRIP_TEST_SOCKET_CLIENT" // the socket path the helper dials
	nobody          = "65534"
)

// TestHelperSocketClient is not a test: run as another uid by
// TestSocketRefusesOtherUID, it dials the socket named in its environment,
// says hello, and prints one line saying what happened.
func TestHelperSocketClient(t *testing.T) {
	path := os.Getenv(socketClientEnv)
	if path == "" {
		t.Skip("helper process for TestSocketRefusesOtherUID")
	}
	fmt.Printf("UID %d\n", os.Getuid())
	c, err := net.DialTimeout("unix", path, 5*time.Second)
	if err != nil {
		fmt.Printf("DIAL_ERROR %v\n", err)
		return
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	args, _ := protocol.Marshal(protocol.HelloArgs{Protocol: protocol.Version})
	werr := protocol.NewSocketWriter(c, 0).Write(protocol.Request{ID: 1, Op: protocol.OpHello, Args: args})
	var rep protocol.Reply
	if err := protocol.NewSocketReader(c, 0).Read(&rep); err != nil {
		fmt.Printf("READ_ERROR %v (write: %v)\n", err, werr)
		return
	}
	if rep.Error != nil {
		fmt.Printf("REFUSED %s\n", rep.Error.Message)
		return
	}
	var info protocol.HostInfo
	_ = protocol.Unmarshal(rep.Result, &info)
	fmt.Printf("SERVED profile=%s socket=%s\n", info.Profile, info.Socket)
	// Try a real request too, so a broken check cannot hide behind hello.
	_ = protocol.NewSocketWriter(c, 0).Write(protocol.Request{ID: 2, Op: protocol.OpStatus})
	if err := protocol.NewSocketReader(c, 0).Read(&rep); err == nil && rep.Error == nil {
		fmt.Println("SERVED status")
	}
}

// runAsNobody runs the helper client as uid/gid 65534 against path and
// returns its output line(s). It skips when setpriv cannot switch uid.
func runAsNobody(t *testing.T, path string) string {
	t.Helper()
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv (util-linux) not installed: cannot run a client of another uid")
	}
	if os.Getuid() != 0 {
		t.Skipf("running as uid %d: switching to uid %s needs root (run as root, e.g. in CI's container)", os.Getuid(), nobody)
	}
	// The test binary lives in go's private build dir: copy it where uid
	// 65534 may execute it.
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "gripsec")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyBin := filepath.Join(dir, "host.test")
	src, err := os.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(copyBin, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	src.Close()
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, setpriv, "--reuid="+nobody, "--regid="+nobody, "--clear-groups", "--",
		copyBin, "-test.run=^TestHelperSocketClient$", "-test.v=false", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = []string{socketClientEnv + "=" + path, "PATH=/usr/bin:/bin", "HOME=" + dir, "TMPDIR=" + dir}
	out, err := cmd.CombinedOutput()
	if err != nil && !bytes.Contains(out, []byte("UID ")) {
		t.Skipf("setpriv could not run a client as uid %s: %v\n%s", nobody, err, out)
	}
	if !bytes.Contains(out, []byte("UID "+nobody)) {
		t.Fatalf("helper did not run as uid %s:\n%s", nobody, out)
	}
	t.Logf("client as uid %s: %s", nobody, bytes.TrimSpace(out))
	return string(out)
}

// TestSocketRefusesOtherUID: another user cannot reach the agent socket.
// First as installed (runtime dir 0700, socket 0600): even the connect is
// denied. Then with the file permissions opened up on purpose, so the
// connection reaches the host: the peer-uid check (SO_PEERCRED) must
// refuse it with a message and serve nothing.
func TestSocketRefusesOtherUID(t *testing.T) {
	fx, _, dirs := startHost(t, "profsec1")
	info := waitPublished(t, dirs, "profsec1")
	_ = fx

	out := runAsNobody(t, info.Socket)
	if !strings.Contains(out, "DIAL_ERROR") || !strings.Contains(out, "permission denied") {
		t.Fatalf("uid %s reached the socket through a 0700 dir:\n%s", nobody, out)
	}
	if strings.Contains(out, "SERVED") {
		t.Fatalf("uid %s was served:\n%s", nobody, out)
	}

	// Open every path component, so only the peer-uid check stands.
	opened := []struct {
		path string
		mode os.FileMode
	}{{dirs.Root, 0o711}, {dirs.Runtime, 0o711}, {info.Socket, 0o666}}
	for _, o := range opened {
		st, err := os.Stat(o.path)
		if err != nil {
			t.Fatal(err)
		}
		old := st.Mode().Perm()
		if err := os.Chmod(o.path, o.mode); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(o.path, old) })
	}
	out = runAsNobody(t, info.Socket)
	if strings.Contains(out, "SERVED") {
		t.Fatalf("peer-uid check let uid %s in:\n%s", nobody, out)
	}
	if !strings.Contains(out, "REFUSED") || !strings.Contains(out, "peer uid "+nobody) {
		t.Fatalf("uid %s not refused with a message:\n%s", nobody, out)
	}
	// The owner is still served.
	checkServes(t, info.Socket)
}

// TestCheckPeerOnSocketpair checks checkPeer on both ends of a real
// connection of our own uid (the positive case, which the refusal test
// above cannot show on its own).
func TestCheckPeerOnSocketpair(t *testing.T) {
	dir := shortTempDir(t)
	path := filepath.Join(dir, "s.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := net.Dial("unix", path)
		if err == nil {
			time.Sleep(100 * time.Millisecond)
			c.Close()
		}
	}()
	c, err := ln.AcceptUnix()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if uid, err := peerUID(c); err != nil || uid != os.Getuid() {
		t.Fatalf("peerUID = %d, %v; want %d", uid, err, os.Getuid())
	}
	if err := checkPeer(c); err != nil {
		t.Fatalf("own uid refused: %v", err)
	}
}

// TestNoTCPListener: a running host listens on its unix socket only.
func TestNoTCPListener(t *testing.T) {
	_, _, dirs := startHost(t, "profsec2")
	waitPublished(t, dirs, "profsec2")
	if l := tcpListenersOf(t, os.Getpid()); len(l) > 0 {
		t.Fatalf("the test process (which runs the host) listens on TCP: %v", l)
	}
}

// tcpListenersOf returns the TCP sockets in LISTEN state that pid holds,
// from /proc/net/tcp{,6} and the inodes of /proc/PID/fd.
func tcpListenersOf(t *testing.T, pid int) []string {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	var found []string
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			if len(fields) < 10 || fields[3] != "0A" { // 0A = LISTEN
				continue
			}
			if inodes[fields[9]] {
				found = append(found, table+" "+fields[1]+" inode "+fields[9])
			}
		}
		f.Close()
	}
	return found
}

// TestDuplicateReplies: an extension that answers a call twice (or
// replays old replies) must not stall the host's reader, which would
// leave the host deaf to Chrome.
func TestDuplicateReplies(t *testing.T) {
	p := newExtensionPort()
	p.pending[5] = make(chan protocol.NativeMessage, 1)
	done := make(chan struct{})
	go func() {
		for i := 0; i < 3; i++ {
			p.deliver(protocol.NativeMessage{ID: 5, Result: []byte(`{}`)})
		}
		p.deliver(protocol.NativeMessage{ID: 99}) // nobody waits for it
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("deliver blocked on a repeated reply: the reader would hang")
	}
}

// TestEarlyExtensionRequest: a request or event from the extension that
// arrives right after its hello, before the host has opened its ledger,
// is answered once the host is ready; it used to crash the host (nil
// refs). FuzzExtensionFrames found it.
func TestEarlyExtensionRequest(t *testing.T) {
	fx, done, dirs := startHost(t, "")
	hello := mustJSON(protocol.NativeMessage{Type: "hello",
		Params: mustJSON(protocol.ExtensionHello{Protocol: protocol.Version, Profile: "profsec3", ExtensionVersion: "0.1.0"})})
	var stream []byte
	for _, body := range [][]byte{hello,
		[]byte(`{"id":7,"type":"status","params":{}}`),
		[]byte(`{"type":"event","params":{"kind":"tab_removed","tabId":5}}`)} {
		stream = append(stream, nativeBody(body)...)
	}
	fx.mu.Lock()
	_, err := fx.toHost.Write(stream) // one write: all three before the ledger opens
	fx.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	// Answer the host like the worker would, and wait for the reply to 7.
	got := make(chan protocol.NativeMessage, 1)
	go func() {
		for {
			var msg protocol.NativeMessage
			if err := fx.r.Read(&msg); err != nil {
				return
			}
			switch {
			case msg.Type == "documents":
				fx.send(protocol.NativeMessage{ID: msg.ID, Result: []byte(`{"documents":[]}`)})
			case msg.Type == "reply" && msg.ID == 7:
				got <- msg
			}
		}
	}()
	select {
	case msg := <-got:
		if msg.Error != nil {
			t.Fatalf("status refused: %+v", msg.Error)
		}
		if !strings.Contains(string(msg.Result), "profsec3") {
			t.Fatalf("status reply %s", msg.Result)
		}
	case err := <-done:
		t.Fatalf("host exited: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no reply to the early status request")
	}
	waitPublished(t, dirs, "profsec3")
}

// TestLogsHoldNoPageText: at the default level the host's log carries no
// page text, typed text or values, whatever flows through it.
func TestLogsHoldNoPageText(t *testing.T) {
	const secret = "Zq9-secret-page-text"
	var logBuf lockedBuffer
	fx, done, dirs := startHostLogging(t, "profsec4", &logBuf)
	_ = fx
	waitPublished(t, dirs, "profsec4")
	c, err := net.Dial("unix", SocketPath(dirs.Runtime, "profsec4"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	w, r := protocol.NewSocketWriter(c, 0), protocol.NewSocketReader(c, 0)
	reqs := []protocol.Request{
		{ID: 1, Op: protocol.OpHello, Args: msgpackArgs(t, protocol.HelloArgs{Protocol: protocol.Version})},
		{ID: 2, Op: protocol.OpAct, Args: msgpackArgs(t, protocol.ActArgs{Action: protocol.ActFill, Target: "#" + hex.EncodeToString([]byte(secret)), Text: secret, Tab: 5})},
		{ID: 3, Op: protocol.OpWait, Args: msgpackArgs(t, protocol.WaitArgs{Text: secret, Tab: 5, TimeoutMS: 200})},
		{ID: 4, Op: protocol.OpAct, Args: msgpackArgs(t, protocol.ActArgs{Action: protocol.ActType, Target: "@e1", Text: secret})},
	}
	for _, req := range reqs {
		if err := w.Write(req); err != nil {
			t.Fatal(err)
		}
		var rep protocol.Reply
		if err := r.Read(&rep); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-done:
		t.Fatalf("host exited: %v", err)
	default:
	}
	if logs := logBuf.String(); strings.Contains(logs, secret) || strings.Contains(logs, hex.EncodeToString([]byte(secret))) {
		t.Fatalf("host log holds page/typed text:\n%s", logs)
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startHostLogging is startHost with the host's log kept in logw (at the
// default level, as cli's host mode sets it without GRIP_DEBUG) and a
// fake extension that, like a real page, puts page text in its errors and
// replies: every request's params come back inside the refusal.
func startHostLogging(t *testing.T, profile string, logw io.Writer) (*fakeExtension, chan error, statedir.Dirs) {
	t.Helper()
	dirs := statedir.At(shortTempDir(t))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	fx := &fakeExtension{t: t, toHost: inW, w: protocol.NewNativeWriter(inW, protocol.MaxFromExtension)}
	fx.r = protocol.NewNativeReader(outR, 0)
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Config{
			Origin: testOrigin, AllowedIDs: []string{testID}, Stdin: inR, Stdout: outW,
			Dirs: dirs, Version: "test", Log: slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelInfo})),
			HelloWait: 5 * time.Second, LedgerRetry: 200 * time.Millisecond,
		})
		outW.Close()
	}()
	fx.send(protocol.NativeMessage{Type: "hello", Params: mustJSON(protocol.ExtensionHello{Protocol: protocol.Version, Profile: profile, ExtensionVersion: "0.1.0"})})
	go func() {
		for {
			var msg protocol.NativeMessage
			if err := fx.r.Read(&msg); err != nil {
				return
			}
			switch msg.Type {
			case "documents":
				fx.send(protocol.NativeMessage{ID: msg.ID, Result: []byte(`{"documents":[]}`)})
			case "tabs":
				fx.send(protocol.NativeMessage{ID: msg.ID, Result: []byte(`{"tabs":[{"id":5,"url":"http://x/","title":"X","active":true}]}`)})
			case "welcome", "refused", "reply":
			default:
				fx.send(protocol.NativeMessage{ID: msg.ID, Error: &protocol.Error{Code: protocol.CodeNotActionable, Boundary: protocol.BoundaryActionability,
					Message: "occluded by [button " + string(msg.Params) + "]"}})
			}
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return fx, done, dirs
}
