package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// argSeeds are command lines (NUL-separated) of every shape the CLI takes.
var argSeeds = []string{
	"",
	"help",
	"--help",
	"version",
	"nope",
	"--json",
	"tabs",
	"tabs\x00new\x00http://x/",
	"tabs\x00close\x00abc",
	"tabs\x00select\x00-1",
	"tabs\x00frobnicate",
	"snapshot\x00--mode\x00content\x00--budget\x0050\x00--json",
	"snapshot\x00--budget\x00-1",
	"snapshot\x00--after\x00@e0",
	"snapshot\x00--tab\x00x",
	"snapshot\x00--mode",
	"click\x00@e3",
	"click",
	"click\x00@e1\x00@e2",
	"click\x00@e3\x00--json\x00--epoch\x00-4\x00--trusted",
	"dblclick\x00#a >>> #b",
	"hover\x00 >>> ",
	"type\x00@e3\x00hello",
	"fill\x00@e3\x00--\x00--json",
	"select\x00@e1\x00Banana",
	"check\x00@e01",
	"uncheck\x00@ex",
	"press\x00Control+A",
	"press\x00Hyper+Q\x00@e1",
	"scroll\x00--up",
	"scroll\x00@e2\x00@e3",
	"navigate\x00javascript:alert(1)",
	"navigate",
	"back", "forward", "reload",
	"wait\x00--text\x00Done",
	"wait\x00--ms\x0010",
	"wait\x00--gone\x00@e3\x00--url\x00x",
	"wait\x00--timeout\x00-1s",
	"screenshot\x00-o\x00",
	"status\x00--json",
	"doctor\x00--json",
	"snapshot\x00--profile\x00../../etc",
	"click\x00@e99999999999999999999999",
	"--json\x00snapshot",
	"snapshot\x00-json=maybe",
	"snapshot\x00\xff\xfe",
}

// launching are commands that start a browser, an MCP server on stdio or
// write install files: not fuzzed here (they have their own tests).
var launching = map[string]bool{"demo": true, "launch": true, "mcp": true, "install": true, "uninstall": true}

// FuzzArgs runs the CLI with arbitrary arguments against an empty state
// dir (no host, so every command that needs one fails fast). It must never
// panic, never exit other than 0, 1 or 2, never block, and --json output
// must be JSON.
func FuzzArgs(f *testing.F) {
	for _, s := range argSeeds {
		f.Add(s)
	}
	state, err := os.MkdirTemp("", "gfa")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(state) })
	// statedir reads the process environment, not App.Getenv.
	os.Setenv("GRIP_STATE_DIR", state)
	f.Fuzz(func(t *testing.T, line string) {
		var args []string
		if line != "" {
			args = strings.Split(line, "\x00")
		}
		if len(args) > 0 && (strings.HasPrefix(args[0], hostPrefix) || launching[args[0]]) {
			return // starts the host or a browser: covered elsewhere
		}
		if len(args) > 0 && args[0] != "help" && args[0] != "version" {
			// Never wait for a browser: --wait 1ms first, any other --wait dropped.
			rest := []string{"--wait", "1ms"}
			for _, a := range args[1:] {
				if strings.HasPrefix(a, "-") && strings.HasPrefix(strings.TrimLeft(a, "-"), "wait") {
					continue
				}
				rest = append(rest, a)
			}
			args = append(args[:1:1], rest...)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var stdout, stderr bytes.Buffer
		app := App{Args: args, Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(k string) string {
				if k == "GRIP_STATE_DIR" {
					return state
				}
				return ""
			}}
		start := time.Now()
		code := app.Run(ctx)
		if took := time.Since(start); took > 8*time.Second {
			t.Fatalf("grip %q blocked for %s", args, took)
		}
		if code != ExitOK && code != ExitFailed && code != ExitUsage {
			t.Fatalf("grip %q exited %d", args, code)
		}
		if out := stdout.Bytes(); len(out) > 0 && out[0] == '{' && !json.Valid(out) {
			t.Fatalf("grip %q printed broken JSON: %q", args, out)
		}
		if code != ExitOK && stderr.Len() == 0 && stdout.Len() == 0 {
			t.Fatalf("grip %q failed (exit %d) without saying why", args, code)
		}
	})
}
