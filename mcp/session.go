package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/grip-dev/grip/protocol"
)

// maxMessage bounds one incoming message. Tool arguments are refs, text
// to type and file paths; a client that sends more is refused, not
// buffered.
const maxMessage = 4 << 20

// errTooLong is a line longer than maxMessage (skipped up to its end).
var errTooLong = errors.New("message longer than 4 MiB")

// session is one client on one stdio pair: it reads requests in order,
// runs tool calls concurrently (so that ping and cancellation are
// answered while a wait runs) and writes each reply as one line.
type session struct {
	srv *Server
	out io.Writer

	wmu sync.Mutex // serialises writes to out

	mu         sync.Mutex
	clientName string                        // from initialize; guarded by mu
	calls      map[string]context.CancelFunc // tool calls in flight by id; guarded by mu
	wg         sync.WaitGroup                // tool calls in flight
}

// Serve runs the MCP server for one client speaking newline-delimited
// JSON-RPC on in/out, until the client closes in (nil) or ctx is done
// (ctx's error). Tool calls still running when in closes are cancelled
// and waited for.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	defer s.closeCaller()
	s.shown(protocol.TabRef{}) // a new client has been told of no tab
	ctx, cancel := context.WithCancel(ctx)
	ss := &session{srv: s, out: out, calls: map[string]context.CancelFunc{}}
	defer func() {
		cancel()     // ends the tool calls still running,
		ss.wg.Wait() // and their replies are written before Serve returns
	}()

	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(r)
			if errors.Is(err, errTooLong) {
				ss.reply(json.RawMessage("null"), nil, &rpcError{codeInvalidRequest, err.Error()})
				continue
			}
			if len(bytes.TrimSpace(line)) > 0 {
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-readErr:
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
				return nil
			}
			return err
		case line := <-lines:
			ss.handle(ctx, line)
		}
	}
}

// readLine reads one line without its newline; a line longer than
// maxMessage is skipped to its end and reported as errTooLong.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxMessage {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil {
				return nil, err
			}
			return nil, errTooLong
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}

// handle answers one message. Requests other than tools/call are answered
// in order, here; tools/call runs on its own goroutine.
func (ss *session) handle(ctx context.Context, line []byte) {
	var msg rpcMessage
	if err := json.Unmarshal(line, &msg); err != nil {
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 && trimmed[0] == '[' {
			ss.reply(json.RawMessage("null"), nil, &rpcError{codeInvalidRequest, "batches are not supported: send one message per line"})
			return
		}
		ss.reply(json.RawMessage("null"), nil, &rpcError{codeParseError, "not a JSON-RPC message: " + err.Error()})
		return
	}
	notification := len(msg.ID) == 0 || string(msg.ID) == "null"
	if msg.Method == "" {
		return // a response: grip sends no requests, so there is nothing to match
	}
	if notification {
		if msg.Method == "notifications/cancelled" {
			var p cancelledParams
			if json.Unmarshal(msg.Params, &p) == nil {
				ss.cancel(string(p.RequestID))
			}
		}
		return // notifications/initialized and the rest need nothing
	}
	if msg.JSONRPC != "2.0" {
		ss.reply(msg.ID, nil, &rpcError{codeInvalidRequest, `jsonrpc must be "2.0"`})
		return
	}
	switch msg.Method {
	case "initialize":
		var p initializeParams
		if err := json.Unmarshal(msg.Params, &p); err != nil {
			ss.reply(msg.ID, nil, &rpcError{codeInvalidParams, "initialize: " + err.Error()})
			return
		}
		if p.ClientInfo != nil {
			ss.mu.Lock()
			ss.clientName = p.ClientInfo.Name
			ss.mu.Unlock()
		}
		version := protocolVersions[0]
		if slices.Contains(protocolVersions, p.ProtocolVersion) {
			version = p.ProtocolVersion
		}
		ss.reply(msg.ID, initializeResult{
			ProtocolVersion: version,
			Capabilities:    map[string]any{"tools": map[string]any{}},
			ServerInfo:      ss.srv.info,
			Instructions:    instructions,
		}, nil)
	case "ping", "logging/setLevel":
		ss.reply(msg.ID, struct{}{}, nil)
	case "tools/list":
		ss.reply(msg.ID, listToolsResult{Tools: ss.srv.tools}, nil)
	case "resources/list":
		ss.reply(msg.ID, map[string]any{"resources": []any{}}, nil)
	case "resources/templates/list":
		ss.reply(msg.ID, map[string]any{"resourceTemplates": []any{}}, nil)
	case "prompts/list":
		ss.reply(msg.ID, map[string]any{"prompts": []any{}}, nil)
	case "tools/call":
		var p callToolParams
		if err := json.Unmarshal(msg.Params, &p); err != nil {
			ss.reply(msg.ID, nil, &rpcError{codeInvalidParams, "tools/call: " + err.Error()})
			return
		}
		h, ok := ss.srv.handlers[p.Name]
		if !ok {
			ss.reply(msg.ID, nil, &rpcError{codeInvalidParams, fmt.Sprintf("unknown tool %q: tools/list names the tools", p.Name)})
			return
		}
		ss.startCall(ctx, msg.ID, h, p.Arguments)
	default:
		ss.reply(msg.ID, nil, &rpcError{codeMethodNotFound, fmt.Sprintf("method %q is not supported by grip", msg.Method)})
	}
}

// startCall runs a tool call on its own goroutine, cancellable by the
// client's notifications/cancelled. A cancelled call gets no reply, as the
// specification asks.
func (ss *session) startCall(ctx context.Context, id json.RawMessage, h toolHandler, args json.RawMessage) {
	key := string(id)
	ctx, cancel := context.WithCancel(ctx)
	ss.mu.Lock()
	if _, dup := ss.calls[key]; dup {
		ss.mu.Unlock()
		cancel()
		ss.reply(id, nil, &rpcError{codeInvalidRequest, "a call with this id is still running"})
		return
	}
	ss.calls[key] = cancel
	name := ss.clientName
	ss.mu.Unlock()
	ctx = context.WithValue(ctx, clientNameKey{}, name) // the host records who acted
	ss.wg.Go(func() {
		res := h(ctx, args)
		ss.mu.Lock()
		_, live := ss.calls[key]
		delete(ss.calls, key)
		ss.mu.Unlock()
		cancel()
		if live {
			ss.reply(id, res, nil)
		}
	})
}

// cancel stops the tool call with this id, if it still runs.
func (ss *session) cancel(key string) {
	ss.mu.Lock()
	cancel := ss.calls[key]
	delete(ss.calls, key)
	ss.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// reply writes one response line. A write error means the client is gone;
// the read side then ends the session.
func (ss *session) reply(id json.RawMessage, result any, rerr *rpcError) {
	b, err := json.Marshal(rpcResponse{JSONRPC: "2.0", ID: id, Result: result, Error: rerr})
	if err != nil {
		b, _ = json.Marshal(rpcResponse{JSONRPC: "2.0", ID: id, Error: &rpcError{-32603, "grip could not encode its reply: " + err.Error()}})
	}
	b = append(b, '\n')
	ss.wmu.Lock()
	defer ss.wmu.Unlock()
	_, _ = ss.out.Write(b)
}
