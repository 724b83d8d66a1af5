package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/grip-dev/grip/protocol"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxMessage bounds one incoming message. Tool arguments are refs, text
// to type and file paths; a client that sends more is refused, not
// buffered.
const maxMessage = 4 << 20

// Serve runs the MCP server for one client speaking newline-delimited
// JSON-RPC on in/out (the SDK's stdio transport), until the client closes
// in (nil) or ctx is done (ctx's error). Tool calls still running when in
// closes are cancelled.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return s.serve(ctx, in, out, newSplicer())
}

// serve is Serve with the session's splicer; nil splices nothing (the
// SDK encodes every result, as the test of the splice compares).
func (s *Server) serve(ctx context.Context, in io.Reader, out io.Writer, splices *splicer) error {
	defer s.closeCaller()
	s.shown(protocol.TabRef{}) // a new client has been told of no tab
	w := &lineWriter{w: out, splices: splices}
	err := s.sdkServer(w.splices).Run(ctx, &sdk.IOTransport{
		Reader: io.NopCloser(messages(in, w)), Writer: w, MaxLineLength: -1, // messages bounds them
	})
	if ctx.Err() == nil && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe)) {
		return nil
	}
	return err
}

// lineWriter serialises the SDK's reply lines and messages' refusals on
// out, with the large texts the SDK was handed tokens for spliced in
// (splice.go); closing it leaves out to whoever opened it.
type lineWriter struct {
	mu      sync.Mutex
	w       io.Writer
	splices *splicer
}

// Write writes one line (the SDK writes each message whole).
func (l *lineWriter) Write(p []byte) (int, error) {
	line := l.splices.splice(p)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.w.Write(line); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (*lineWriter) Close() error { return nil }

// messages passes the lines of in that are JSON objects on to the SDK and
// answers the rest itself: the SDK ends the whole session on a line it
// cannot parse (a batch, a stray word, a line over maxMessage), where a
// JSON-RPC server refuses that one message and goes on.
func messages(in io.Reader, w io.Writer) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(r)
			msg := bytes.TrimSpace(line)
			switch {
			case errors.Is(err, errTooLong):
				refuse(w, nil, codeInvalidRequest, err.Error())
				continue
			case len(msg) == 0:
			case msg[0] == '[':
				refuse(w, nil, codeInvalidRequest, "batches are not supported: send one message per line")
			case msg[0] != '{' || !json.Valid(msg):
				refuse(w, nil, codeParseError, "not a JSON-RPC message: send one JSON object per line")
			case !version2(msg):
				var m struct{ ID json.RawMessage }
				_ = json.Unmarshal(msg, &m)
				refuse(w, m.ID, codeInvalidRequest, `jsonrpc must be "2.0"`)
			default:
				if _, werr := pw.Write(append(msg, '\n')); werr != nil {
					return // the SDK stopped reading
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// JSON-RPC's error codes for what messages refuses.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// version2 says whether msg, a JSON object, says it is JSON-RPC 2.0.
func version2(msg []byte) bool {
	var m struct {
		JSONRPC string `json:"jsonrpc"`
	}
	return json.Unmarshal(msg, &m) == nil && m.JSONRPC == "2.0"
}

// refuse writes the error reply to the message with this id (nil: none
// could be read).
func refuse(w io.Writer, id json.RawMessage, code int, message string) {
	if len(id) == 0 || !json.Valid(id) {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
	_, _ = w.Write(append(b, '\n'))
}

// errTooLong is a line longer than maxMessage (skipped up to its end).
var errTooLong = errors.New("message longer than 4 MiB")

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

// sdkServer is the SDK's server with grip's tools and instructions. The
// SDK answers initialize, ping, tools/list and cancellation; grip's
// handlers check and decode each call's arguments themselves
// (addTool), against the schemas the SDK lists. A result's large texts
// are held by splices for the session's writer (splice.go).
func (s *Server) sdkServer(splices *splicer) *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: s.info.Name, Title: s.info.Title, Version: s.info.Version},
		&sdk.ServerOptions{Instructions: instructions})
	for _, t := range s.tools {
		h := s.handlers[t.Name]
		st := &sdk.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema}
		if t.Annotations != nil {
			// A read-only tool changes nothing, so calling it again changes
			// nothing either. (The SDK writes idempotentHint always.)
			st.Annotations = &sdk.ToolAnnotations{ReadOnlyHint: t.Annotations.ReadOnlyHint, IdempotentHint: t.Annotations.ReadOnlyHint}
		}
		srv.AddTool(st, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			name := "" // the host records who acted
			if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
				name = p.ClientInfo.Name
			}
			return splices.hold(h(context.WithValue(ctx, clientNameKey{}, name), req.Params.Arguments)), nil
		})
	}
	srv.AddReceivingMiddleware(renamedTools)
	return srv
}

// renamedTools answers a call of a tool of an earlier release with a tool
// error naming the new call, which the model reads, rather than the SDK's
// "unknown tool".
func renamedTools(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if call, ok := req.(*sdk.CallToolRequest); ok && call.Params != nil {
			if now, old := renamed[call.Params.Name]; old {
				return toolError(protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
					"use "+now, "%s is now %s", call.Params.Name, now)), nil
			}
		}
		return next(ctx, method, req)
	}
}
