package mcp

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// snapshotHost answers every snapshot with text.
type snapshotHost struct{ text string }

func (h snapshotHost) Call(_ context.Context, op string, _, result any) error {
	if s, ok := result.(*protocol.Snapshot); ok && op == protocol.OpSnapshot {
		*s = protocol.Snapshot{Tab: protocol.TabRef{ID: 3, URL: "http://127.0.0.1/", Title: "t"}, Text: h.text}
	}
	return nil
}

func (snapshotHost) Close() error { return nil }

// snapshotLines runs one session whose host answers with text, calls
// browser_snapshot n times and returns the reply lines as written.
func snapshotLines(tb testing.TB, text string, splices *splicer, n int) [][]byte {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := New(func(context.Context) (Caller, error) { return snapshotHost{text}, nil }, Options{Version: "test"})
	done := make(chan error, 1)
	go func() {
		done <- srv.serve(context.Background(), inR, outW, splices)
		outW.Close()
	}()
	out := bufio.NewScanner(outR)
	out.Buffer(nil, 64<<20)
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			tb.Fatal(err)
		}
	}
	next := func() []byte {
		if !out.Scan() {
			tb.Fatalf("no reply: %v", out.Err())
		}
		return bytes.Clone(out.Bytes())
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	next()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var lines [][]byte
	for i := range n {
		send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"browser_snapshot","arguments":{}}}`)
		lines = append(lines, next())
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		tb.Fatal("Serve did not return after the client closed")
	}
	return lines
}

// spliceTexts are texts a snapshot may hold, each padded past spliceMin:
// what JSON escapes (quotes, backslashes, controls, HTML's <>&, U+2028),
// bytes that are not UTF-8, a text that names a token, and a text around
// a token of the session itself.
var spliceTexts = []string{
	"@e1: [button 'Save']\n",
	`quote " backslash \ slash / tab	 nul ` + "\x00 \x01 \x1f \x7f",
	"<script>&amp;</script> \u2028 \u2029 é ☃ 😀",
	"not UTF-8: \xff\xfe \xc3 \xed\xa0\x80",
	`"grip-splice-0123456789abcdef01234567-1" and grip-splice-`,
	"grip dialog accept --text T|dismiss (grip snapshot --after @e40 --tab 5)",
}

func padded(s string) string {
	return s + strings.Repeat("@e9: [link 'Open record f1-2']\n", spliceMin/30+1)
}

// TestSpliceIsTheSDKsLine: a large result's line, spliced, is the line the
// SDK writes when it encodes the text itself, byte for byte.
func TestSpliceIsTheSDKsLine(t *testing.T) {
	for i, s := range spliceTexts {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			checkSplice(t, padded(s))
		})
	}
	t.Run("small", func(t *testing.T) {
		sp := newSplicer()
		want := snapshotLines(t, "@e1: [button 'Save']", nil, 1)
		got := snapshotLines(t, "@e1: [button 'Save']", sp, 1)
		if !bytes.Equal(got[0], want[0]) || sp.next != 0 {
			t.Errorf("a small result: %d tokens; line\n%s\nwant\n%s", sp.next, got[0], want[0])
		}
	})
}

func checkSplice(t *testing.T, text string) {
	t.Helper()
	want := snapshotLines(t, text, nil, 2)
	sp := newSplicer()
	got := snapshotLines(t, text, sp, 2)
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("call %d: the spliced line differs from the SDK's (%d and %d bytes)\n%.300q\nwant\n%.300q", i, len(got[i]), len(want[i]), got[i], want[i])
		}
	}
	if sp.next != 2 || len(sp.held) != 0 {
		t.Errorf("%d tokens given, %d texts still held; want 2 given and none held", sp.next, len(sp.held))
	}
}

func FuzzSplice(f *testing.F) {
	for _, s := range spliceTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkSplice(t, padded(s))
	})
}

// TestSpliceHoldsABoundedNumber: results answered while many lines are
// still unwritten go through the SDK's encoding as they are, past
// splicesHeld; a written line lets its text go.
func TestSpliceHoldsABoundedNumber(t *testing.T) {
	sp := newSplicer()
	text := padded("x")
	var results []*sdk.CallToolResult
	for range splicesHeld + 2 {
		results = append(results, sp.hold(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}))
	}
	for i, r := range results {
		got := r.Content[0].(*sdk.TextContent).Text
		if held := i < splicesHeld; held != strings.HasPrefix(got, sp.prefix) {
			t.Errorf("result %d: text %.40q, want it held: %v", i, got, held)
		}
	}
	line := []byte(`{"result":{"content":[{"type":"text","text":"` + results[0].Content[0].(*sdk.TextContent).Text + `"}]}}`)
	if out := sp.splice(line); !bytes.Contains(out, []byte("x@e9")) || len(sp.held) != splicesHeld-1 {
		t.Errorf("splice: %d held after one line, line %.80q", len(sp.held), out)
	}
	if out := sp.splice([]byte(`{"x":1}`)); string(out) != `{"x":1}` {
		t.Errorf("a line without a token came out as %q", out)
	}
}

// TestToolWordsNameGrip: every command toolWords rewrites holds "grip ",
// which a text must hold to be scanned for them.
func TestToolWordsNameGrip(t *testing.T) {
	for i := 0; i < len(toolWordPairs); i += 2 {
		if !strings.Contains(toolWordPairs[i], "grip ") {
			t.Errorf("%q does not hold \"grip \": toolWords would pass it by", toolWordPairs[i])
		}
	}
	if got := toolWords("x (grip wait or grip snapshot to read it)"); got != "x (browser_wait_for or browser_snapshot to read it)" {
		t.Errorf("toolWords = %q", got)
	}
}

// BenchmarkSnapshot5000 is `grip mcp`'s own share of a browser_snapshot of
// 5,000 controls (200 KB of text): the tool's text, its JSON-RPC line.
func BenchmarkSnapshot5000(b *testing.B) {
	var sb strings.Builder
	roles := []string{"button 'Save item", "link 'Open record", "textbox 'Field", "checkbox 'Enable option", "combobox 'Pick size"}
	for i := range 5500 {
		sb.WriteString("@e" + strconv.Itoa(i+1) + ": [" + roles[i%len(roles)] + " f" + strconv.Itoa(i%10) + "-" + strconv.Itoa(i) + "']\n")
	}
	text := sb.String()
	b.ReportAllocs()
	b.ResetTimer()
	lines := snapshotLines(b, text, newSplicer(), b.N)
	if len(lines[0]) < len(text) {
		b.Fatalf("reply of %d bytes for a text of %d", len(lines[0]), len(text))
	}
}
