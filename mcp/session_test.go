package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawSession is a Server driven line by line, as a client that does not
// use the SDK (or misbehaves) would drive it.
type rawSession struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func newRawSession(t *testing.T, caller Caller) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := New(func(context.Context) (Caller, error) { return caller, nil }, Options{Version: "test"})
	r := &rawSession{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	r.out.Buffer(nil, 1<<20)
	go func() {
		r.done <- srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR) // let replies still in flight be written
		select {
		case err := <-r.done:
			if err != nil {
				t.Errorf("Serve = %v, want nil after the client closed", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return after the client closed")
		}
	})
	return r
}

// initialize opens the MCP session as a client does.
func (r *rawSession) initialize() {
	r.t.Helper()
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := r.next(); m["result"] == nil {
		r.t.Fatalf("initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func (r *rawSession) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// next reads the next reply.
func (r *rawSession) next() map[string]any {
	r.t.Helper()
	line := r.nextLine()
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		r.t.Fatalf("reply is not JSON: %q", line)
	}
	return m
}

// nextLine reads the next reply line as it was written.
func (r *rawSession) nextLine() []byte {
	r.t.Helper()
	got := make(chan bool, 1)
	go func() { got <- r.out.Scan() }()
	select {
	case ok := <-got:
		if !ok {
			r.t.Fatalf("no reply: %v", r.out.Err())
		}
	case <-time.After(5 * time.Second):
		r.t.Fatal("no reply within 5 s")
	}
	return slices.Clone(r.out.Bytes())
}

// JSON-RPC's error codes the SDK answers with; anyError is any error
// (the SDK answers a bad initialize with code 0).
const (
	anyError           = 0
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

func TestSessionRefusesBadMessages(t *testing.T) {
	r := newRawSession(t, &fakeHost{})
	r.initialize()
	tests := []struct {
		line string
		id   any
		code float64
	}{
		{`{not json`, nil, codeParseError},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, nil, codeInvalidRequest},
		{`{"jsonrpc":"1.0","id":2,"method":"ping"}`, 2.0, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage"}`, 3.0, codeMethodNotFound},
		{`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"browser_teleport"}}`, "x", codeInvalidParams},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":"nope"}`, 5.0, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":6,"method":"initialize","params":[]}`, 6.0, anyError},
		{`{"jsonrpc":"2.0","id":7,"method":"server/discover"}`, 7.0, codeMethodNotFound},
	}
	for _, tt := range tests {
		r.send(tt.line)
		m := r.next()
		if m["id"] != tt.id || m["error"] == nil || tt.code != anyError && errCode(m) != tt.code {
			t.Errorf("%s: got %v, want id %v code %v", tt.line, m, tt.id, tt.code)
		}
	}
	// A line over the limit is refused and skipped; the session goes on.
	r.send(`{"jsonrpc":"2.0","id":8,"method":"ping","params":{"pad":"` + strings.Repeat("x", maxMessage) + `"}}`)
	if m := r.next(); errCode(m) != codeInvalidRequest {
		t.Errorf("over-long line: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	if m := r.next(); m["id"] != 9.0 || m["error"] != nil {
		t.Errorf("ping after the refusals: %v", m)
	}
}

// Arguments that do not fit the tool's schema are a tool error the model
// reads (bad_request, naming the field), and nothing reaches the host.
func TestSessionChecksArguments(t *testing.T) {
	host := &fakeHost{}
	r := newRawSession(t, host)
	r.initialize()
	for i, args := range []string{`{}`, `{"ref":7}`, `{"ref":"@e1","bogus":1}`, `[1]`} {
		r.send(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"tools/call","params":{"name":"browser_click","arguments":` + args + `}}`)
		m := r.next()
		res, _ := m["result"].(map[string]any)
		if res["isError"] != true || !strings.Contains(toJSON(res), "bad_request") {
			t.Errorf("arguments %s: %v", args, m)
		}
	}
	if calls := host.takeCalls(); len(calls) != 0 {
		t.Errorf("the host got %v", calls)
	}
}

// A cancelled call stops (its context ends), gets no reply, and the
// session keeps answering.
func TestSessionCancelsACall(t *testing.T) {
	started := make(chan struct{})
	stopped := make(chan struct{})
	blocking := client.CallerFunc(func(ctx context.Context, op string, args, result any) error {
		close(started)
		<-ctx.Done()
		close(stopped)
		return ctx.Err()
	})
	r := newRawSession(t, blocking)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"raw","version":"1"}}}`)
	if m := r.next(); toJSON(m["result"]) == "" || !strings.Contains(toJSON(m), `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_wait_for","arguments":{"text":"never"}}}`)
	<-started
	r.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if m := r.next(); m["id"] != 3.0 {
		t.Fatalf("ping while a call runs: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled call did not stop")
	}
	// The SDK still answers the cancelled call (the specification says it
	// should not; clients drop the reply): with a cancellation, never a
	// result.
	r.send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	m := r.next()
	if m["id"] == 2.0 {
		if !strings.Contains(toJSON(m), "cancelled") {
			t.Fatalf("the cancelled call's reply is %v", m)
		}
		m = r.next()
	}
	if m["id"] != 4.0 {
		t.Fatalf("the next reply is %v, want the ping's", m)
	}
}

// An unknown protocol revision is answered with one the SDK speaks.
func TestSessionNegotiatesTheRevision(t *testing.T) {
	r := newRawSession(t, &fakeHost{})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01"}}`)
	m := r.next()
	res, _ := m["result"].(map[string]any)
	caps, _ := res["capabilities"].(map[string]any)
	if v, _ := res["protocolVersion"].(string); !slices.Contains(sdk.SupportedProtocolVersions(), v) || caps["tools"] == nil {
		t.Errorf("initialize: %v", m)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// FuzzSessionMessage: whatever a client sends, the session answers with
// JSON (or nothing, for a notification), never panics, and answers the
// next ping.
func FuzzSessionMessage(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"x"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"browser_click","arguments":{"ref":"@e1"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"browser_tabs","arguments":{"action":"list","index":-1}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`[]`, `{`, `null`, `"x"`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") {
			return // one message a line
		}
		r := newRawSession(t, &fakeHost{})
		r.initialize()
		// Sent while the replies are read: the pipes hold nothing.
		go io.WriteString(r.in, line+"\n"+`{"jsonrpc":"2.0","id":"last","method":"ping"}`+"\n")
		for {
			if m := r.next(); m["id"] == "last" {
				return
			}
		}
	})
}
