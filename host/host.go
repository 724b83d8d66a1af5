// Package host is grip's native-messaging host: Chrome starts it as
// `grip chrome-extension://ID/`, it talks to the extension over stdin and
// stdout, owns the profile's refs (refcache) and serves agents over a
// per-profile unix socket.
package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
	"github.com/grip-dev/grip/statedir"
)

// Config is everything a host needs; cmd/grip fills it from the process.
type Config struct {
	Origin      string   // the argument Chrome passed: chrome-extension://ID/
	AllowedIDs  []string // extension IDs allowed to start the host
	Stdin       io.Reader
	Stdout      io.Writer // frames only
	Dirs        statedir.Dirs
	Version     string
	Log         *slog.Logger
	HelloWait   time.Duration // how long to wait for the extension's hello; 0 means 10 s
	DebugLogs   bool          // page text may appear in logs only when set
	LedgerRetry time.Duration // how long to wait for a previous host's ledger lock; 0 means 5 s
	// Launch is set when `grip launch` started the browser (its
	// GRIP_LAUNCH): doctor is told of its profile, and resume takes the
	// launcher's token (docs/person.md, "A browser grip launched").
	Launch *launcher.Launch
}

// Sentinel errors of the host, checked with errors.Is.
var (
	ErrOriginRefused = errors.New("host: origin not allowed")
	ErrNoHello       = errors.New("host: the extension did not say hello")
	ErrHostRunning   = errors.New("host: another host already serves this profile")
)

// validProfile says whether a profile id from the extension's hello is
// one grip makes (it names files): 4 to 64 of a-z, 0-9, and _ or - after
// the first.
func validProfile(s string) bool { return profileID().MatchString(s) }

var profileID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{3,63}$`) })

// buildWarning says what to do when the extension and this host come from
// different builds of grip. An extension loaded from the source folder
// (no stamp) is a developer's, and says nothing.
func buildWarning(extBuild, hostBuild string) string {
	if extBuild == "" || extBuild == hostBuild {
		return ""
	}
	return fmt.Sprintf("the extension (build %s) and grip (build %s) come from different builds: run grip install again, then reload grip in chrome://extensions (or restart the browser)", extBuild, hostBuild)
}

// Host is one running host: one browser profile, one extension channel.
type Host struct {
	cfg  Config
	log  *slog.Logger
	port *extensionPort
	refs *refcache.Allocator
	info protocol.HostInfo
	tabs *tabQueues
	// ready is closed once refs is set: the extension's events and
	// requests wait for it, since the reader hands them over from the
	// first frame on, before the ledger is open.
	ready chan struct{}
	// docRefresh coalesces the listings of live documents that
	// navigations ask for.
	docRefresh coalescer
	// openers knows which tab opened which, for the replies (effects.go).
	openers *openerBook
	// walks are the elements of each tab's last walks, which a re-read of
	// a page that has not changed is told to use (walks.go).
	walks walkStore
	// downloads is where each session's `grip wait --download` looks next.
	downloads downloadCursors
	// recorders are the sessions' workflow recordings (recorder.go).
	recorders recorders
	// notices are the notices to the extension, sent in order (person.go).
	notices noticeQueue
	// person is the person's controls: policy, pause, shared tabs, the
	// record of what agents did (host/person.go). Set before ready closes.
	person *personControls

	mu       sync.Mutex
	lastSnap *protocol.SnapshotInfo // guarded by mu
	lastErrs []string               // guarded by mu
}

// Run runs a host until the extension closes stdin (exit 0) or a fatal
// error. It never writes anything but native-messaging frames to Stdout.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	id, err := manifest.ParseOrigin(cfg.Origin)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrOriginRefused, err)
	}
	if err := manifest.AllowedOrigin(cfg.Origin, cfg.AllowedIDs); err != nil {
		return fmt.Errorf("%w: %v", ErrOriginRefused, err)
	}
	h := &Host{cfg: cfg, log: cfg.Log, port: newExtensionPort(), tabs: newTabQueues(), ready: make(chan struct{}), openers: newOpenerBook()}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	writer := protocol.NewNativeWriter(cfg.Stdout, 0)
	writeDone := make(chan error, 1)
	go func() { writeDone <- h.port.writeLoop(writer) }()

	hello := make(chan protocol.NativeMessage, 1)
	readDone := make(chan error, 1)
	go func() {
		reader := protocol.NewNativeReader(cfg.Stdin, 0)
		err := readLoop(reader, func(msg protocol.NativeMessage) {
			switch {
			case msg.Type == protocol.MsgHello:
				select {
				case hello <- msg:
				default:
					h.log.Warn("second hello ignored")
				}
			case msg.Type == "" && msg.ID != 0:
				h.port.deliver(msg)
			case msg.Type == protocol.MsgEvent:
				go func() {
					if h.waitReady(ctx) {
						h.onEvent(ctx, msg.Params)
					}
				}()
			case msg.ID != 0:
				go func() {
					if h.waitReady(ctx) {
						h.onExtensionRequest(ctx, msg)
					}
				}()
			default:
				h.log.Warn("unknown message from the extension", "type", msg.Type)
			}
		}, func(err error) { h.noteError(err) })
		h.port.close()
		readDone <- err
	}()

	wait := cfg.HelloWait
	if wait == 0 {
		wait = 10 * time.Second
	}
	var helloMsg protocol.NativeMessage
	select {
	case helloMsg = <-hello:
	case err := <-readDone:
		if err == nil {
			return nil // stdin closed before hello: Chrome gave up on us
		}
		return err
	case <-time.After(wait):
		return ErrNoHello
	case <-ctx.Done():
		return ctx.Err()
	}
	var eh protocol.ExtensionHello
	if err := json.Unmarshal(helloMsg.Params, &eh); err != nil {
		return h.refuse(fmt.Errorf("%w: bad hello: %v", ErrNoHello, err))
	}
	if eh.Protocol != protocol.Version {
		return h.refuse(protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"update grip and the extension to the same release",
			"the extension speaks protocol %d, this host %d", eh.Protocol, protocol.Version))
	}
	if !validProfile(eh.Profile) {
		return h.refuse(fmt.Errorf("%w: bad profile id %q", ErrNoHello, eh.Profile))
	}
	h.info = protocol.HostInfo{
		Protocol: protocol.Version, HostVersion: cfg.Version, ExtensionVersion: eh.ExtensionVersion,
		ExtensionID: id, Profile: eh.Profile, PID: os.Getpid(), Browser: eh.Browser,
		Started:        time.Now().UTC().Format(time.RFC3339),
		ExtensionBuild: eh.Build, Warning: buildWarning(eh.Build, extension.Build()),
	}
	if l := cfg.Launch; l != nil {
		h.info.Launched = &protocol.LaunchedBrowser{ProfileDir: l.ProfileDir, Headless: l.Headless, Resume: l.ResumeSHA256 != ""}
	}

	refs, err := h.openLedger(ctx, eh.Profile)
	if err != nil {
		return h.refuse(err)
	}
	h.refs = refs
	h.person = newPersonControls(h, eh)
	go h.person.policy.Watch(ctx)
	close(h.ready)
	defer func() {
		if err := h.refs.Close(); err != nil {
			h.log.Error("ledger: final save failed", "err", err)
		}
	}()
	if lerr := refs.LoadError(); lerr != nil {
		h.noteError(fmt.Errorf("ledger: %w", lerr))
	}

	srv, err := listen(cfg.Dirs.Runtime, eh.Profile)
	if err != nil {
		return h.refuse(err)
	}
	h.info.Socket = srv.path
	defer srv.close()

	// At start, refs of documents the browser no longer has are stale.
	h.refreshLiveDocuments(ctx)

	if err := h.port.send(protocol.NativeMessage{Type: protocol.MsgWelcome, Params: mustJSON(h.info)}); err != nil {
		return err
	}
	if err := srv.publish(h.info); err != nil {
		return err
	}
	h.log.Info("host ready", "profile", eh.Profile, "socket", srv.path, "extension", eh.ExtensionVersion)

	go srv.serve(ctx, h)

	select {
	case err := <-readDone:
		if err != nil {
			h.log.Error("extension channel broke", "err", err)
		}
		h.log.Info("extension closed the channel; exiting")
		srv.leave(h.info)
		return err
	case err := <-writeDone:
		return err
	case <-ctx.Done():
		return nil
	}
}

// waitReady waits until the host has its ledger; false when the host
// stops first. An extension event or request that came before is handled
// then: acting on it earlier would reach for refs that do not exist yet.
func (h *Host) waitReady(ctx context.Context) bool {
	select {
	case <-h.ready:
		return true
	case <-ctx.Done():
		return false
	}
}

// openLedger opens the profile's ledger, waiting a little for the lock a
// previous host of the same profile may still hold while it exits.
func (h *Host) openLedger(ctx context.Context, profile string) (*refcache.Allocator, error) {
	if err := statedir.Ensure(h.cfg.Dirs.Ledger); err != nil {
		// An unwritable ledger dir (read-only, full, wrong owner) must not
		// stop the host: refcache then works from memory and says what it
		// could not do, and the host keeps serving.
		h.noteError(fmt.Errorf("ledger: dir %s: %w; refs may not be saved", h.cfg.Dirs.Ledger, err))
	}
	retry := h.cfg.LedgerRetry
	if retry == 0 {
		retry = 5 * time.Second
	}
	deadline := time.Now().Add(retry)
	for {
		refs, err := refcache.Open(h.cfg.Dirs.Ledger, profile)
		if err == nil {
			return refs, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: %v", ErrHostRunning, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// refuse tells the extension why this host will not serve, then returns err.
func (h *Host) refuse(err error) error {
	perr := protocol.AsError(err)
	_ = h.port.send(protocol.NativeMessage{Type: protocol.MsgRefused, Error: perr})
	time.Sleep(50 * time.Millisecond) // let the writer flush before we exit
	return err
}

// noteError logs an error and keeps the last few for status (doctor, popup).
func (h *Host) noteError(err error) {
	h.log.Error(err.Error())
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lastErrs = append(h.lastErrs, time.Now().UTC().Format(time.RFC3339)+" "+err.Error())
	if len(h.lastErrs) > 10 {
		h.lastErrs = h.lastErrs[len(h.lastErrs)-10:]
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only called with our own plain structs
	}
	return b
}
