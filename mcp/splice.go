package mcp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A large tool result (a whole page's snapshot, 200 KB at 5,000 controls)
// does not go through the SDK's encoder: it encodes a result's text once
// and then, for each of the three values it is nested in (the content, the
// result, the JSON-RPC response), validates and copies it again, which
// cost a 5,000-control snapshot 6 of its 8 ms in `grip mcp`
// (bench/RESULTS.md, "The first read after the page changed", 2026-12-02).
// Instead the SDK is handed a short token in the text's place, and the
// session's writer (lineWriter) puts the text, encoded once exactly as the
// SDK encodes it, where the token's encoding stands in the line. The line
// a client reads is the same, byte for byte (TestSpliceIsTheSDKsLine).

// spliceMin is the shortest text that is spliced: below it, the SDK's own
// encoding costs less than a look for the token.
const spliceMin = 16 << 10

// splicesHeld bounds the texts held for lines not yet written (calls
// answered at once, each written as soon as it is answered); past it, a
// result goes through the SDK's encoder as it is.
const splicesHeld = 16

// splicer holds the texts whose tokens stand in tool results until the
// line carrying each token is written.
type splicer struct {
	prefix string // the session's tokens start with it; random, so no text a page wrote can be one
	mu     sync.Mutex
	next   uint64            // guarded by mu
	held   map[string][]byte // token → the text encoded as a JSON string; guarded by mu
}

func newSplicer() *splicer {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return &splicer{prefix: "grip-splice-" + hex.EncodeToString(b[:]) + "-", held: map[string][]byte{}}
}

// hold puts tokens in place of res's large texts, in a copy of res, and
// keeps their encodings for splice. A result with none is res itself.
func (sp *splicer) hold(res *sdk.CallToolResult) *sdk.CallToolResult {
	if sp == nil || res == nil {
		return res
	}
	var out *sdk.CallToolResult
	for i, c := range res.Content {
		tc, ok := c.(*sdk.TextContent)
		if !ok || len(tc.Text) < spliceMin {
			continue
		}
		// The SDK's TextContent.MarshalJSON encodes its text with
		// json.Marshal; the values around it copy it unchanged.
		enc, err := json.Marshal(tc.Text)
		if err != nil {
			continue
		}
		sp.mu.Lock()
		if len(sp.held) >= splicesHeld {
			sp.mu.Unlock()
			break
		}
		sp.next++
		token := sp.prefix + strconv.FormatUint(sp.next, 10)
		sp.held[token] = enc
		sp.mu.Unlock()
		if out == nil {
			cp := *res
			cp.Content = append([]sdk.Content(nil), res.Content...)
			out = &cp
		}
		t := *tc
		t.Text = token
		out.Content[i] = &t
	}
	if out == nil {
		return res
	}
	return out
}

// splice returns line with each held token's encoding replaced by its
// text's, and lets go of those texts; a line with none is line itself.
func (sp *splicer) splice(line []byte) []byte {
	if sp == nil {
		return line
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if len(sp.held) == 0 {
		return line
	}
	quoted := []byte(`"` + sp.prefix)
	var out []byte
	rest := line
	for {
		i := bytes.Index(rest, quoted)
		if i < 0 {
			break
		}
		// The token is the prefix and a number; its encoding ends at the
		// next quote.
		end := bytes.IndexByte(rest[i+1:], '"')
		if end < 0 {
			break
		}
		end += i + 1
		token := string(rest[i+1 : end])
		enc, ok := sp.held[token]
		if !ok {
			out = append(out, rest[:end+1]...)
			rest = rest[end+1:]
			continue
		}
		delete(sp.held, token)
		if out == nil {
			out = make([]byte, 0, len(line)+len(enc))
		}
		out = append(out, rest[:i]...)
		out = append(out, enc...)
		rest = rest[end+1:]
	}
	if out == nil {
		return line
	}
	return append(out, rest...)
}
