package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// An agent pays for tools/list and the instructions its client puts
// beside it once per session, before any work (docs/cli.md, "MCP
// tools"). Together they may cost no more than Playwright MCP's: its
// figures are measured by bench/toollist.mjs (and bench/run --mcp) with
// the release bench/package.json pins, and written to
// testdata/playwright-mcp-tools.json, which this test reads. Counting here
// rather than running Node keeps the test in `go test` on any machine; the
// pin check below makes a new Playwright MCP release fail until it is
// measured again.
const playwrightListing = "testdata/playwright-mcp-tools.json"

type listing struct {
	Package string `json:"package"`
	Version string `json:"version"`
	Tools   int    `json:"tools"`
	List    struct {
		Chars  int `json:"chars"`
		Tokens int `json:"tokens"`
	} `json:"list"`
	Instructions struct {
		Chars  int `json:"chars"`
		Tokens int `json:"tokens"`
	} `json:"instructions"`
}

// TestToolsListWithinBudget takes the tools/list result the server sends
// (the SDK's encoding, fields and all), as JSON the way a JavaScript
// client holds it (JSON.stringify: no HTML escaping), and counts its characters and o200k_base tokens, and the
// instructions', as bench/mcp.mjs counts both servers' (gpt-tokenizer's
// o200k_base; tiktoken-go's is the same encoding). Both sums must be at
// most Playwright MCP's.
func TestToolsListWithinBudget(t *testing.T) {
	b, err := os.ReadFile(playwrightListing)
	if err != nil {
		t.Fatalf("%v: run node bench/toollist.mjs", err)
	}
	var pw listing
	if err := json.Unmarshal(b, &pw); err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err = os.ReadFile(filepath.Join("..", "bench", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if pin := pkg.Dependencies[pw.Package]; pin != pw.Version {
		t.Fatalf("%s holds %s %s's figures, but bench/package.json pins %s: run node bench/toollist.mjs", playwrightListing, pw.Package, pw.Version, pin)
	}

	list, tools := listedTools(t)
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int {
		n, err := codec.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	chars, tokens := utf8.RuneCountInString(list), count(list)
	insChars, insTokens := utf8.RuneCountInString(instructions), count(instructions)
	t.Logf("grip: %d tools, tools/list %d characters, %d tokens; instructions %d characters, %d tokens", tools, chars, tokens, insChars, insTokens)
	t.Logf("%s %s: %d tools, tools/list %d characters, %d tokens; instructions %d characters, %d tokens",
		pw.Package, pw.Version, pw.Tools, pw.List.Chars, pw.List.Tokens, pw.Instructions.Chars, pw.Instructions.Tokens)
	if got, most := tokens+insTokens, pw.List.Tokens+pw.Instructions.Tokens; got > most {
		t.Errorf("tools/list and the instructions are %d tokens, over Playwright MCP's %d: merge verbs that share a shape into one tool, say what tools share once, in the instructions, and keep each tool's own contract short", got, most)
	}
	if got, most := chars+insChars, pw.List.Chars+pw.Instructions.Chars; got > most {
		t.Errorf("tools/list and the instructions are %d characters, over Playwright MCP's %d", got, most)
	}
}

// listedTools returns the result of tools/list as the server writes it on
// the wire, with Go's HTML escapes undone as JSON.stringify would write
// it, and the number of tools.
func listedTools(t *testing.T) (string, int) {
	t.Helper()
	r := newRawSession(t, &fakeHost{})
	r.initialize()
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var reply struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(r.nextLine(), &reply); err != nil {
		t.Fatal(err)
	}
	var result struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(reply.Result, &result); err != nil {
		t.Fatal(err)
	}
	unescape := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&")
	return unescape.Replace(string(reply.Result)), len(result.Tools)
}
