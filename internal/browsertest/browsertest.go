// Package browsertest is the real-browser harness every end-to-end test
// shares: it builds the grip binary, writes the host manifest into a temp
// Chromium profile, loads the embedded extension, serves fixture pages on
// two loopback origins, points GRIP_STATE_DIR at a temp dir, and cleans
// everything up — failing when a profile or a process leaks.
package browsertest

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/protocol"
)

// RequireEnv makes a missing browser a failure instead of a skip (CI sets it).
const RequireEnv = "GRIP_REQUIRE_BROWSER"

// FindBrowser returns a Chromium-family browser's path ($GRIP_BROWSER,
// PATH, then the usual install locations: launcher.Find), or "" when there
// is none or the tests run with -short (the quick checks: every
// real-browser test skips, RequireEnv or not).
func FindBrowser() string {
	if Short() {
		return ""
	}
	p, err := launcher.Find("")
	if err != nil {
		return ""
	}
	return p
}

// Env is one running test browser with grip installed.
type Env struct {
	Root       string // everything temporary lives under here
	Bin        string // the grip binary
	StateDir   string // GRIP_STATE_DIR for the host and the CLI
	ProfileDir string // the browser's --user-data-dir
	ExtDir     string // the unpacked extension
	// DownloadDir is where the browser saves downloads: a folder of the
	// test, not the user's ~/Downloads (headless Chromium's default too).
	DownloadDir string
	Origin1     string // http://127.0.0.1:PORT
	Origin2     string // http://localhost:PORT (another origin: cross-origin frames)

	allocCtx    context.Context
	allocCancel context.CancelFunc
	browserCtx  context.Context
	browserStop context.CancelFunc
	servers     []*http.Server
	ownsRoot    bool
	debugPort   bool
	startURL    string
}

// Options shape an Env.
type Options struct {
	Fixtures fs.FS  // served on both origins; nil serves nothing
	Bin      string // a prebuilt grip binary; "" builds one
	Headed   bool
	// SkipManifest leaves the host manifest out (install tests write it).
	SkipManifest bool
	// ExtraFlags are added to the browser's command line.
	ExtraFlags map[string]any
	// Extension is loaded instead of the embedded one (e.g. another build,
	// to compare against); nil loads the embedded extension.
	Extension fs.FS
	// DebugPort opens the browser's DevTools port on loopback (instead of
	// the pipe alone), so other DevTools-protocol clients can connect
	// beside grip and the harness: Endpoint gives its address.
	DebugPort bool
	// StartURL is the page the browser opens on its command line, as a
	// person's launcher does ("" opens about:blank, chromedp's default).
	StartURL string
}

// ForMain starts an Env for a package's TestMain, or returns nil (and
// prints why) when no browser is installed and RequireEnv is unset: the
// caller's browser tests then skip. With RequireEnv set, it exits 1.
func ForMain(opt Options) *Env {
	if Short() {
		fmt.Fprintln(os.Stderr, "browsertest: -short: real-browser tests skip")
		return nil
	}
	if FindBrowser() == "" {
		if os.Getenv(RequireEnv) != "" {
			fmt.Fprintln(os.Stderr, "browsertest: no Chromium-family browser found and "+RequireEnv+" is set; apt-get install chromium")
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "browsertest: no browser installed; real-browser tests skip")
		return nil
	}
	env, err := Start(opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "browsertest: %v\n", err)
		os.Exit(1)
	}
	return env
}

// Short reports whether the tests run with -short. A TestMain has not
// parsed the flags yet when it asks, so Short parses them first (m.Run
// then finds them parsed).
func Short() bool {
	if !flag.Parsed() {
		flag.Parse()
	}
	return testing.Short()
}

// Need skips t when env is nil (no browser and not required).
func Need(t testing.TB, env *Env) {
	t.Helper()
	if env == nil {
		t.Skip("no browser installed (set " + RequireEnv + "=1 to make this a failure)")
	}
}

// Start builds, writes and launches everything.
func Start(opt Options) (*Env, error) {
	root, err := os.MkdirTemp("", "grip-e2e-")
	if err != nil {
		return nil, err
	}
	e := &Env{Root: root, ownsRoot: true,
		StateDir:    filepath.Join(root, "state"),
		ProfileDir:  filepath.Join(root, "profile"),
		ExtDir:      filepath.Join(root, "extension"),
		DownloadDir: filepath.Join(root, "downloads"),
	}
	ok := false
	defer func() {
		if !ok {
			e.Close()
		}
	}()
	e.Bin = opt.Bin
	if e.Bin == "" {
		if e.Bin, err = BuildGrip(filepath.Join(root, "bin")); err != nil {
			return nil, err
		}
	}
	if opt.Extension != nil {
		if err := os.CopyFS(e.ExtDir, opt.Extension); err != nil {
			return nil, err
		}
	} else if err := WriteExtension(e.ExtDir); err != nil {
		return nil, err
	}
	if err := WriteDownloadPrefs(e.ProfileDir, e.DownloadDir); err != nil {
		return nil, err
	}
	if !opt.SkipManifest {
		if err := WriteHostManifest(e.ProfileDir, e.Bin); err != nil {
			return nil, err
		}
	}
	if opt.Fixtures != nil {
		if e.Origin1, err = e.serve("127.0.0.1", opt.Fixtures); err != nil {
			return nil, err
		}
		if e.Origin2, err = e.serve("localhost", opt.Fixtures); err != nil {
			return nil, err
		}
	}
	e.debugPort, e.startURL = opt.DebugPort, opt.StartURL
	if err := e.Launch(opt.Headed, opt.ExtraFlags); err != nil {
		return nil, err
	}
	ok = true
	return e, nil
}

// BuildGrip builds cmd/grip and cmd/grip-host into dir (grip hands the
// host, install, launch, mcp and demo to the grip-host beside it) and
// returns grip's path.
func BuildGrip(dir string) (string, error) {
	modRoot, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	for _, name := range []string{"grip-host", "grip"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name+exe), "./cmd/"+name)
		cmd.Dir = modRoot
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as scripts/demo and the release build it
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build ./cmd/%s: %v\n%s", name, err, out)
		}
	}
	return filepath.Join(dir, "grip"+exe), nil
}

// ModuleRoot finds the folder holding go.mod.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("browsertest: not inside the grip module")
	}
	return filepath.Dir(gomod), nil
}

// WriteExtension writes the embedded extension to dir.
func WriteExtension(dir string) error { return launcher.WriteExtension(dir) }

// WriteDownloadPrefs makes a new profile save downloads in dir, without
// asking: the preferences file of its Default profile, written before the
// browser first starts (Chromium reads it then, and keeps the rest of its
// defaults).
func WriteDownloadPrefs(profileDir, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	prefs := map[string]any{"download": map[string]any{"default_directory": dir, "prompt_for_download": false}}
	b, err := json.Marshal(prefs)
	if err != nil {
		return err
	}
	def := filepath.Join(profileDir, "Default")
	if err := os.MkdirAll(def, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(def, "Preferences"), b, 0o600)
}

// WriteHostManifest puts grip's host manifest where Chromium looks for a
// custom --user-data-dir: DIR/NativeMessagingHosts/.
func WriteHostManifest(profileDir, bin string) error {
	return launcher.WriteHostManifest(profileDir, bin)
}

func (e *Env) serve(host string, files fs.FS) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: FixtureHandler(files), ReadHeaderTimeout: 5 * time.Second}
	e.servers = append(e.servers, srv)
	go srv.Serve(ln)
	return fmt.Sprintf("http://%s:%d", host, ln.Addr().(*net.TCPAddr).Port), nil
}

// onThisMachine reports whether to is a whole http:// URL on a loopback
// host the fixtures are served on.
func onThisMachine(to string) bool {
	u, err := url.Parse(to)
	if err != nil || u.Scheme != "http" {
		return false
	}
	return u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost"
}

// FixtureHandler serves files with no caching, so every load is fresh,
// and paths that are not files, for pages that post, fail and load slowly:
// /redirect?to=PATH answers any method (a form's POST too) with 303 See
// Other to PATH on the same origin (or to a whole URL on this machine,
// http://localhost:PORT/…, the other fixture origin), /missing?to=PATH
// serves the file PATH as 404 Not Found (a site's own error page), and /slow?ms=N&to=PATH serves the file
// PATH after N milliseconds (at most 30 s), and /hold?key=K answers once
// the test calls Release(K) ("released"; "timed out" after 30 s or &s=N),
// /socket?key=K opens a WebSocket once the test calls Release(K), and
// /longpoll?key=K&since=N is a long poll: it answers how many events K had
// once that is more than N (or after 30 s, &s=S: S seconds; &flush=1 sends
// the headers at once, as Syncthing's /rest/events does), an event being a
// request to /notify?key=K, which answers the new count.
func FixtureHandler(files fs.FS) http.Handler {
	fsrv := http.FileServer(http.FS(files))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		to := r.URL.Query().Get("to")
		switch r.URL.Path {
		case "/redirect":
			if (!strings.HasPrefix(to, "/") || strings.HasPrefix(to, "//")) && !onThisMachine(to) {
				http.Error(w, "to must be a path, or a URL on 127.0.0.1 or localhost", http.StatusBadRequest)
				return
			}
			http.Redirect(w, r, to, http.StatusSeeOther)
			return
		case "/missing":
			body, err := fs.ReadFile(files, strings.TrimPrefix(to, "/"))
			if err != nil || !strings.HasPrefix(to, "/") {
				http.Error(w, "missing?to=/PATH of a file", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			w.Write(body)
			return
		case "/hold":
			// /hold?key=K answers "released" only once the test calls
			// Release(K), or "timed out" after 30 s (&s=N: N seconds, at
			// most 300): a page's synchronous request here blocks its main
			// thread for as long as the test needs, by construction, and
			// the page can tell which ended it.
			bound := 30 * time.Second
			if n, err := strconv.Atoi(r.URL.Query().Get("s")); err == nil && n > 0 && n <= 300 {
				bound = time.Duration(n) * time.Second
			}
			ch := holdChan(r.URL.Query().Get("key"))
			select {
			case <-ch:
			case <-time.After(bound):
				w.Write([]byte("timed out"))
				return
			case <-r.Context().Done():
				return
			}
			w.Write([]byte("released"))
			return
		case "/longpoll":
			// A long poll, as Syncthing's GUI keeps one open on
			// /rest/events: held until an event comes after the one the
			// page last saw, which a save's /notify makes, or the bound.
			bound := 30 * time.Second
			if n, err := strconv.Atoi(r.URL.Query().Get("s")); err == nil && n > 0 && n <= 300 {
				bound = time.Duration(n) * time.Second
			}
			since, _ := strconv.Atoi(r.URL.Query().Get("since"))
			if f, ok := w.(http.Flusher); ok && r.URL.Query().Get("flush") == "1" {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusOK)
				f.Flush()
			}
			n := waitEvents(r.Context(), r.URL.Query().Get("key"), since, bound)
			fmt.Fprint(w, n)
			return
		case "/notify":
			fmt.Fprint(w, Notify(r.URL.Query().Get("key")))
			return
		case "/socket":
			// /socket?key=K opens a WebSocket whose handshake is answered
			// only once the test calls Release(K) (after 30 s: refused),
			// so an opening is in flight for as long as the test needs.
			holdSocket(w, r, holdChan(r.URL.Query().Get("key")))
			return
		case "/slow":
			ms, err := strconv.Atoi(r.URL.Query().Get("ms"))
			if err != nil || ms < 0 || ms > 30000 || !strings.HasPrefix(to, "/") {
				http.Error(w, "slow?ms=N&to=/PATH", http.StatusBadRequest)
				return
			}
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			r2 := r.Clone(r.Context())
			r2.URL.Path, r2.URL.RawQuery = to, ""
			fsrv.ServeHTTP(w, r2)
			return
		}
		fsrv.ServeHTTP(w, r)
	})
}

// holdSocket answers a WebSocket handshake (RFC 6455) once released, then
// sends one text frame, "hello", and holds the connection until the
// client goes.
func holdSocket(w http.ResponseWriter, r *http.Request, released chan struct{}) {
	key := r.Header.Get("Sec-WebSocket-Key")
	if key == "" || !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		http.Error(w, "a WebSocket handshake", http.StatusBadRequest)
		return
	}
	select {
	case <-released:
	case <-time.After(30 * time.Second):
		http.Error(w, "not released", http.StatusServiceUnavailable)
		return
	case <-r.Context().Done():
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "cannot hijack", http.StatusInternalServerError)
		return
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	fmt.Fprintf(rw, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", base64.StdEncoding.EncodeToString(sum[:]))
	rw.Write([]byte{0x81, 5, 'h', 'e', 'l', 'l', 'o'})
	rw.Flush()
	io.Copy(io.Discard, rw)
}

var (
	holdsMu sync.Mutex
	holds   = map[string]chan struct{}{}
	waiting = map[string]int{}
)

func holdChan(key string) chan struct{} {
	holdsMu.Lock()
	defer holdsMu.Unlock()
	ch, ok := holds[key]
	if !ok {
		ch = make(chan struct{})
		holds[key] = ch
	}
	waiting[key]++
	return ch
}

var (
	eventsMu sync.Mutex
	events   = map[string]*eventLog{}
)

// eventLog is one key's events: how many came, a channel closed at the
// next, and how many long polls wait for it.
type eventLog struct {
	n       int
	next    chan struct{}
	waiting int
}

// eventsOf is key's log; eventsMu is held.
func eventsOf(key string) *eventLog {
	e, ok := events[key]
	if !ok {
		e = &eventLog{next: make(chan struct{})}
		events[key] = e
	}
	return e
}

// Notify adds an event to key, as a request to /notify?key=key does, and
// returns how many it has had.
func Notify(key string) int {
	eventsMu.Lock()
	defer eventsMu.Unlock()
	e := eventsOf(key)
	e.n++
	close(e.next)
	e.next = make(chan struct{})
	return e.n
}

// waitEvents returns how many events key has had once that is more than
// since, or at the bound, or when ctx ends.
func waitEvents(ctx context.Context, key string, since int, bound time.Duration) int {
	eventsMu.Lock()
	eventsOf(key).waiting++
	eventsMu.Unlock()
	defer func() {
		eventsMu.Lock()
		eventsOf(key).waiting--
		eventsMu.Unlock()
	}()
	timeout := time.After(bound)
	for {
		eventsMu.Lock()
		e := eventsOf(key)
		n, next := e.n, e.next
		eventsMu.Unlock()
		if n > since {
			return n
		}
		select {
		case <-next:
		case <-timeout:
			return n
		case <-ctx.Done():
			return n
		}
	}
}

// Polls says how many requests to /longpoll?key=key are held now.
func Polls(key string) int {
	eventsMu.Lock()
	defer eventsMu.Unlock()
	return eventsOf(key).waiting
}

// Held says how many requests to /hold?key=key have arrived.
func Held(key string) int {
	holdsMu.Lock()
	defer holdsMu.Unlock()
	return waiting[key]
}

// Release answers every request to /hold?key=key, now and later.
func Release(key string) {
	holdsMu.Lock()
	defer holdsMu.Unlock()
	ch, ok := holds[key]
	if !ok {
		ch = make(chan struct{})
		holds[key] = ch
	}
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// BrowserFlags are the flags verified to work on a machine without network,
// the same list `grip demo` and `grip launch` use (launcher.Flags), as
// chromedp options, with Chromium's sandbox off: a test browser opens only
// the harness's own fixture pages, keeps no logins, and must start in
// containers where the sandbox cannot run.
func BrowserFlags(profileDir, extDir string, headed bool) []chromedp.ExecAllocatorOption {
	var opts []chromedp.ExecAllocatorOption
	for _, f := range append(launcher.Flags(profileDir, extDir, headed), launcher.NoSandboxFlag) {
		opts = append(opts, chromedp.Flag(launcher.SplitFlag(f)))
	}
	return opts
}

// Launch starts the browser (again, after Restart).
func (e *Env) Launch(headed bool, extra map[string]any) error {
	opts := append(BrowserFlags(e.ProfileDir, e.ExtDir, headed),
		chromedp.ExecPath(FindBrowser()),
		chromedp.Env(append(launcher.Env(e.ProfileDir),
			"GRIP_STATE_DIR="+e.StateDir,
			"HOME="+os.Getenv("HOME"),
		)...),
	)
	for k, v := range extra {
		opts = append(opts, chromedp.Flag(k, v))
	}
	if e.debugPort {
		// The browser's output must be read to the end: with the port,
		// chromedp reads it for the address and closes it unless told where
		// the rest goes, and grip's host, whose stderr is the browser's, then
		// dies of SIGPIPE at its first log line.
		opts = append(opts, remote.WebSocket, chromedp.Flag("remote-debugging-port", "0"),
			chromedp.Flag("remote-debugging-address", "127.0.0.1"), chromedp.CombinedOutput(io.Discard))
	}
	if e.startURL != "" {
		url := e.startURL
		opts = append(opts, chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			// chromedp's last argument is the page it opens, about:blank.
			if n := len(cmd.Args); n > 0 && cmd.Args[n-1] == "about:blank" {
				cmd.Args[n-1] = url
			}
		}))
	}
	e.allocCtx, e.allocCancel = chromedp.NewExecAllocator(context.Background(), opts...)
	e.browserCtx, e.browserStop = chromedp.NewContext(e.allocCtx)
	if err := chromedp.Do(e.browserCtx); err != nil {
		return fmt.Errorf("browsertest: start %s: %w", FindBrowser(), err)
	}
	return nil
}

// Endpoint is the browser's DevTools websocket address (Options.DebugPort),
// read from the DevToolsActivePort file Chromium writes into its profile.
func (e *Env) Endpoint() (string, error) {
	if !e.debugPort {
		return "", errors.New("browsertest: the browser was started without Options.DebugPort")
	}
	b, err := os.ReadFile(filepath.Join(e.ProfileDir, "DevToolsActivePort"))
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		return "", fmt.Errorf("browsertest: DevToolsActivePort holds %q", b)
	}
	return "ws://127.0.0.1:" + lines[0] + lines[1], nil
}

// BrowserContext is chromedp's context for the browser (for CDP-level
// tricks like stopping the service worker).
func (e *Env) BrowserContext() context.Context { return e.browserCtx }

// Stop closes the browser, keeping its profile (for restart tests).
func (e *Env) Stop() {
	if e.browserStop != nil {
		ctx, cancel := context.WithTimeout(e.browserCtx, 5*time.Second)
		_ = chromedp.Cancel(ctx)
		cancel()
		e.browserStop()
		e.browserStop = nil
	}
	if e.allocCancel != nil {
		e.allocCancel()
		e.allocCancel = nil
	}
}

// Close stops everything and removes every temp file. It returns an error
// when something leaked: a host still published, or files it cannot remove.
func (e *Env) Close() error {
	e.Stop()
	for _, s := range e.servers {
		s.Close()
	}
	var errs []error
	// The hosts exit when the browser closes their stdin: waited for,
	// within 20 s (it was 5, which a busy machine can outlast).
	deadline := time.Now().Add(20 * time.Second)
	for {
		left, _ := filepath.Glob(filepath.Join(e.StateDir, "run", "*.json"))
		live := 0
		for _, f := range left {
			var info protocol.HostInfo
			if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &info) == nil && processAlive(info.PID) {
				live++
			}
		}
		if live == 0 {
			break
		}
		if time.Now().After(deadline) {
			errs = append(errs, fmt.Errorf("browsertest: %d grip host(s) still running after the browser closed", live))
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if e.ownsRoot {
		if err := os.RemoveAll(e.Root); err != nil {
			errs = append(errs, fmt.Errorf("browsertest: temp profile leaked: %w", err))
		}
		if _, err := os.Stat(e.Root); err == nil {
			errs = append(errs, fmt.Errorf("browsertest: temp profile %s still exists", e.Root))
		}
	}
	return errors.Join(errs...)
}

func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}

// Result is one run of the grip CLI.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Grip runs the grip binary with GRIP_STATE_DIR set.
func (e *Env) Grip(ctx context.Context, args ...string) Result {
	return RunGrip(ctx, e.Bin, e.StateDir, args...)
}

// BinOrSkip returns the built grip binary, skipping t when there is no Env.
func (e *Env) BinOrSkip(t testing.TB) string {
	t.Helper()
	Need(t, e)
	return e.Bin
}

// RunGrip runs bin with GRIP_STATE_DIR=stateDir.
func RunGrip(ctx context.Context, bin, stateDir string, args ...string) Result {
	return RunGripEnv(ctx, bin, stateDir, nil, args...)
}

// RunGripEnv is RunGrip with extra environment variables ("K=V"), which
// win over the test process's own.
func RunGripEnv(ctx context.Context, bin, stateDir string, extra []string, args ...string) Result {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append(os.Environ(), "GRIP_STATE_DIR="+stateDir), extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
		errb.WriteString(err.Error())
	}
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
}

// MustGrip runs grip and fails the test unless it exits 0.
func (e *Env) MustGrip(t testing.TB, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r := e.Grip(ctx, args...)
	if r.Code != 0 {
		t.Fatalf("grip %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	return r.Stdout
}

// GripJSON runs grip with --json and decodes stdout into v; it returns the
// exit code (a refusal's JSON decodes into v too).
func (e *Env) GripJSON(t testing.TB, v any, args ...string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r := e.Grip(ctx, append(args, "--json")...)
	if err := json.Unmarshal([]byte(r.Stdout), v); err != nil {
		t.Fatalf("grip %s --json: exit %d, stdout is not JSON: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.Code, err, r.Stdout, r.Stderr)
	}
	return r.Code
}

// OpenTab opens url in a new tab through grip and returns its tab id.
func (e *Env) OpenTab(t testing.TB, url string) int {
	t.Helper()
	var res protocol.ActionResult
	if code := e.GripJSON(t, &res, "tabs", "new", url); code != 0 {
		t.Fatalf("grip tabs new %s: exit %d: %+v", url, code, res)
	}
	if res.Tab.ID == 0 {
		t.Fatalf("grip tabs new %s: no tab id in %+v", url, res)
	}
	id := res.Tab.ID
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		e.Grip(ctx, "tabs", "close", fmt.Sprint(id))
	})
	return id
}
