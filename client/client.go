// Package client is the agent's side of the socket: it finds the host a
// browser profile published in the runtime dir (waiting for one with
// fsnotify when none is there yet), says hello and makes calls, matching
// replies to requests by id.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// Client is one connection to a host. It is safe for concurrent calls.
type Client struct {
	Info protocol.HostInfo
	conn io.ReadWriteCloser

	wmu sync.Mutex // serialises writes
	w   *protocol.SocketWriter

	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]chan protocol.Reply // guarded by mu
	err     error                          // guarded by mu; set when the connection broke
	done    chan struct{}
}

// ErrConnectionLost is returned by calls in flight when the host went away.
var ErrConnectionLost = errors.New("client: the connection to the host was lost")

// Hosts lists the hosts published in runtimeDir, whether or not they still
// answer (a host killed with SIGKILL leaves its file behind). Of each it
// reads what finding one takes (profile, pid, socket); the hello returns
// the rest: encoding/json's first decode of a type reflects over it, and
// the whole HostInfo took three times the instructions of the three fields
// (docs/cli-cost.md, "The CLI's fixed cost").
func Hosts(runtimeDir string) ([]protocol.HostInfo, error) {
	matches, err := filepath.Glob(filepath.Join(runtimeDir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []protocol.HostInfo
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil {
			continue
		}
		var pub struct {
			Profile string `json:"profile"`
			PID     int    `json:"pid"`
			Socket  string `json:"socket"`
		}
		if json.Unmarshal(b, &pub) != nil || pub.Profile == "" || pub.Socket == "" {
			continue
		}
		out = append(out, protocol.HostInfo{Profile: pub.Profile, PID: pub.PID, Socket: pub.Socket})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Profile < out[j].Profile })
	return out, nil
}

// Dial connects to a published host and says hello as the CLI.
func Dial(ctx context.Context, info protocol.HostInfo) (*Client, error) {
	return DialAs(ctx, info, "")
}

// DialAs is Dial with the name the host records for this client's
// actions (an MCP client's name); "" means "cli". The connection belongs
// to the default session.
func DialAs(ctx context.Context, info protocol.HostInfo, client string) (*Client, error) {
	return DialSession(ctx, info, client, "")
}

// DialSession is DialAs for a connection of the named session ("" is
// protocol.DefaultSession): the host lets it use its own tabs, the tabs the
// person shared and, under tabs = all, the person's other tabs.
func DialSession(ctx context.Context, info protocol.HostInfo, client, session string) (*Client, error) {
	if client == "" {
		client = "cli"
	}
	conn, err := dial(ctx, info.Socket)
	if err != nil {
		return nil, err
	}
	c := &Client{Info: info, conn: conn, w: protocol.NewSocketWriter(conn, protocol.MaxRequestFrame),
		pending: map[uint64]chan protocol.Reply{}, done: make(chan struct{})}
	go c.readLoop()
	var got protocol.HostInfo
	if err := c.Call(ctx, protocol.OpHello, protocol.HelloArgs{Protocol: protocol.Version, Client: client, Session: session}, &got); err != nil {
		c.Close()
		return nil, err
	}
	c.Info = got
	return c, nil
}

// readLoop reads replies until the connection ends. protocol.Unmarshal
// refuses a reply nested too deep or claiming more than its bytes hold
// before decoding it; such a reply ends the connection, since the call
// it answers cannot be told.
func (c *Client) readLoop() {
	r := protocol.NewSocketReader(c.conn, protocol.MaxReplyFrame)
	var err error
	for {
		var rep protocol.Reply
		if err = r.Read(&rep); err != nil {
			break
		}
		c.mu.Lock()
		ch := c.pending[rep.ID]
		delete(c.pending, rep.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- rep
		} else if rep.Error != nil && rep.ID == 0 {
			// The host refused the connection itself (e.g. peer check).
			err = rep.Error
			break
		}
	}
	c.mu.Lock()
	if c.err == nil {
		c.err = fmt.Errorf("%w: %v", ErrConnectionLost, err)
	}
	c.mu.Unlock()
	close(c.done)
}

// Call sends op with args and decodes the result into result (if non-nil).
// A refusal comes back as *protocol.Error; a broken connection as an error
// wrapping ErrConnectionLost.
func (c *Client) Call(ctx context.Context, op string, args, result any) error {
	ch := make(chan protocol.Reply, 1)
	id, err := c.send(op, args, ch)
	if err != nil {
		return err
	}
	select {
	case rep := <-ch:
		if rep.Error != nil {
			return rep.Error
		}
		if result != nil && len(rep.Result) > 0 {
			return protocol.Unmarshal(rep.Result, result)
		}
		return nil
	case <-c.done:
		c.forget(id)
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.err
	case <-ctx.Done():
		c.forget(id)
		// The host ends the call too (protocol.OpCancel): a question to
		// the person answered later must not act for a client that was
		// told the call failed. The cancel's reply goes to no one.
		_, _ = c.send(protocol.OpCancel, protocol.CancelArgs{Request: id}, nil)
		return ctx.Err()
	}
}

// send writes a request for op and returns its id; its reply goes to ch,
// or, when ch is nil, to no one (readLoop drops a reply no call waits for).
func (c *Client) send(op string, args any, ch chan protocol.Reply) (uint64, error) {
	raw, err := protocol.Marshal(args)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return 0, err
	}
	c.nextID++
	id := c.nextID
	if ch != nil {
		c.pending[id] = ch
	}
	c.mu.Unlock()
	c.wmu.Lock()
	werr := c.w.Write(protocol.Request{ID: id, Op: op, Args: raw})
	c.wmu.Unlock()
	if werr != nil {
		c.forget(id)
		if errors.Is(werr, protocol.ErrFrameTooLarge) {
			return 0, protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload, "send less at once", "%v", werr)
		}
		return 0, fmt.Errorf("%w: %v", ErrConnectionLost, werr)
	}
	return id, nil
}

func (c *Client) forget(id uint64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Options choose and wait for a host.
type Options struct {
	RuntimeDir string        // "" means the state dir's runtime dir
	Profile    string        // "" means the only connected one
	Wait       time.Duration // how long to wait for a host to appear
	// Waiting, if set, is called once when no host is there yet.
	Waiting func(msg string)
	// Accept, if set, chooses among the published hosts: grip launch
	// takes only the host its own browser started.
	Accept func(protocol.HostInfo) bool
	// Client is the name the host records for this client's actions in
	// its log of what agents did; "" means "cli".
	Client string
	// Session is the session the connection belongs to (grip --session,
	// GRIP_SESSION, one per grip mcp process); "" is the default session.
	Session string
}

// Connect finds the chosen host and dials it, waiting up to opt.Wait for
// one to appear: it watches the runtime dir with fsnotify rather than
// polling, since a host publishes its info file once its socket accepts.
func Connect(ctx context.Context, opt Options) (*Client, error) {
	if opt.RuntimeDir == "" {
		dirs, err := statedir.Get()
		if err != nil {
			return nil, err
		}
		opt.RuntimeDir = dirs.Runtime
	}
	if err := statedir.Ensure(opt.RuntimeDir); err != nil {
		return nil, err
	}
	// The common case: a host is there. Only without one is it worth
	// setting up a watcher (an inotify instance) to wait for it.
	if c, err := pick(ctx, opt); c != nil || err != nil {
		return c, err
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	defer w.Close()
	if err := w.Add(opt.RuntimeDir); err != nil {
		return nil, err
	}
	deadline := time.NewTimer(opt.Wait)
	defer deadline.Stop()
	told := false
	for {
		c, err := pick(ctx, opt)
		if c != nil || err != nil {
			return c, err
		}
		if !told && opt.Waiting != nil && opt.Wait > 0 {
			opt.Waiting(fmt.Sprintf("waiting up to %s for a browser with the grip extension…", opt.Wait))
			told = true
		}
		select {
		case <-w.Events:
		case werr := <-w.Errors:
			return nil, werr
		case <-deadline.C:
			return nil, noHost(opt)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func noHost(opt Options) error {
	what := "no browser with the grip extension is connected"
	if opt.Profile != "" {
		what = fmt.Sprintf("no host for profile %q is connected", opt.Profile)
	}
	if left, ok := lastLeft(opt); ok {
		// A host was there and its extension went: the keeper document
		// brings a stopped worker back within a second or two
		// (docs/lifetime.md, "The worker's lifetime"), so after the
		// wait it is the browser or the extension that is gone.
		ago := "at " + left.Left
		if t, err := time.Parse(time.RFC3339, left.Left); err == nil {
			ago = time.Since(t).Round(time.Second).String() + " ago"
		}
		return protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryBrowser,
			"check that the browser is still running and that grip is switched on in chrome://extensions (grip's popup has a Reconnect button); "+
				"grip launch starts a browser of its own; grip doctor says what is missing",
			"%s (waited %s): the extension of browser profile %s closed its connection %s and has not come back; "+
				"when Chrome only stops grip's service worker it reconnects within seconds, so the browser was closed, "+
				"or grip's extension was switched off, removed or is being reloaded", what, opt.Wait, left.Profile, ago)
	}
	return protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryHost,
		"start Chrome with the grip extension loaded (grip install, then load it), or run grip launch; grip doctor says what is missing",
		"%s (waited %s)", what, opt.Wait)
}

// LastLeft is the newest note a host in runtimeDir left as its browser's
// extension closed the channel: which browser went, and when.
func LastLeft(runtimeDir string) (protocol.HostInfo, bool) {
	return lastLeft(Options{RuntimeDir: runtimeDir})
}

// lastLeft reads the newest note a host left as its extension closed the
// channel (protocol.LeftSuffix), among the hosts opt would take.
func lastLeft(opt Options) (protocol.HostInfo, bool) {
	matches, _ := filepath.Glob(filepath.Join(opt.RuntimeDir, "*"+protocol.LeftSuffix))
	var best protocol.HostInfo
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil {
			continue
		}
		var info protocol.HostInfo
		if json.Unmarshal(b, &info) != nil || info.Profile == "" || info.Left == "" {
			continue
		}
		if opt.Profile != "" && info.Profile != opt.Profile || opt.Accept != nil && !opt.Accept(info) {
			continue
		}
		if info.Left > best.Left { // RFC 3339 in UTC sorts as time
			best = info
		}
	}
	return best, best.Left != ""
}

// pick dials the published hosts that match; (nil, nil) means none answers.
func pick(ctx context.Context, opt Options) (*Client, error) {
	hosts, err := Hosts(opt.RuntimeDir)
	if err != nil {
		return nil, err
	}
	var live []*Client
	var lastErr error
	for _, info := range hosts {
		if opt.Profile != "" && info.Profile != opt.Profile || opt.Accept != nil && !opt.Accept(info) {
			continue
		}
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		c, err := DialSession(dctx, info, opt.Client, opt.Session)
		cancel()
		if err != nil {
			var perr *protocol.Error
			if errors.As(err, &perr) {
				lastErr = perr // a live host that refused us: say why
			}
			continue
		}
		live = append(live, c)
	}
	switch len(live) {
	case 0:
		return nil, lastErr
	case 1:
		return live[0], nil
	}
	var names []string
	for _, c := range live {
		names = append(names, c.Info.Profile)
		c.Close()
	}
	return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryHost,
		"choose one with --profile", "%d browser profiles are connected: %s", len(live), strings.Join(names, ", "))
}

// Probe lists the published hosts whose socket answered a hello with our
// protocol version, and an error for each published host that did not:
// grip doctor's view.
func Probe(ctx context.Context, runtimeDir string) ([]protocol.HostInfo, []error) {
	hosts, err := Hosts(runtimeDir)
	if err != nil {
		return nil, []error{err}
	}
	var live []protocol.HostInfo
	var errs []error
	for _, info := range hosts {
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		c, err := Dial(dctx, info)
		cancel()
		if err != nil {
			errs = append(errs, fmt.Errorf("host of profile %s (pid %d) does not answer: %w", info.Profile, info.PID, err))
			continue
		}
		live = append(live, c.Info)
		c.Close()
	}
	return live, errs
}
