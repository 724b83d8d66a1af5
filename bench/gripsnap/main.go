// Command gripsnap is the Go side of grip's benchmarks (bench/run): it
// prepares a browser profile with grip installed, times snapshots through
// the host's socket without a process start per snapshot, runs the
// snapshot + click cycles of the memory figure. The host times its own
// spans (snapshot with timings): nothing here repeats the host's code.
//
//	gripsnap prepare -profile DIR -grip BIN        JSON {ext_dir, flags, env}
//	gripsnap bench -n N [-tab ID] [-mode M]        JSON {ms:[…], text}
//	gripsnap serve                                 JSON lines on stdin/stdout
//
// serve's ops: info, tabs, snap, cycles, rss; exec (one process run with
// its wall time and rusage, cost.go), connect (a fresh connection's
// find + dial + hello, then one tabs call) and wait (one OpWait for text).
//
// Every command that talks to a host uses GRIP_STATE_DIR like the CLI.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/protocol"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gripsnap prepare|bench|serve [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "prepare":
		err = prepare(os.Args[2:])
	case "bench":
		err = benchCmd(os.Args[2:])
	case "serve":
		err = serve()
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gripsnap:", err)
		os.Exit(1)
	}
}

func printJSON(v any) {
	b, _ := json.Marshal(v)
	os.Stdout.Write(append(b, '\n'))
}

// prepare writes grip's host manifest and extension into a profile folder
// (launcher.PrepareProfile, as grip launch does) and prints the flags grip's
// own launches use, so the benchmark's Chromium matches them.
func prepare(argv []string) error {
	f := flag.NewFlagSet("prepare", flag.ExitOnError)
	profile := f.String("profile", "", "the browser's --user-data-dir")
	bin := f.String("grip", "", "the grip binary the host manifest starts")
	f.Parse(argv)
	if *profile == "" || *bin == "" {
		return errors.New("prepare needs -profile and -grip")
	}
	ext, err := launcher.PrepareProfile(*profile, *bin)
	if err != nil {
		return err
	}
	printJSON(map[string]any{"ext_dir": ext, "flags": launcher.Flags(*profile, ext, false), "env": launcher.Env(*profile)})
	return nil
}

func connect(ctx context.Context) (*client.Client, error) {
	return client.Connect(ctx, client.Options{Wait: 60 * time.Second})
}

// benchCmd connects once and times n snapshots of one tab.
func benchCmd(argv []string) error {
	f := flag.NewFlagSet("bench", flag.ExitOnError)
	n := f.Int("n", 7, "snapshots to time (after one warm-up)")
	tab := f.Int("tab", 0, "tab id (0: the active tab)")
	mode := f.String("mode", protocol.ModeInteractive, "interactive or content")
	budget := f.Int("budget", 0, "token budget (0: grip's default)")
	f.Parse(argv)
	ctx := context.Background()
	c, err := connect(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	args := protocol.SnapshotArgs{Tab: *tab, Mode: *mode, Budget: *budget}
	var snap protocol.Snapshot
	if err := c.Call(ctx, protocol.OpSnapshot, args, &snap); err != nil {
		return err
	}
	ms := make([]float64, 0, *n)
	for range *n {
		t0 := time.Now()
		if err := c.Call(ctx, protocol.OpSnapshot, args, &snap); err != nil {
			return err
		}
		ms = append(ms, msSince(t0))
	}
	printJSON(map[string]any{"ms": ms, "median": median(ms), "elements": countElements(&snap), "tokens": snap.Tokens, "text": snap.Text})
	return nil
}

func msSince(t0 time.Time) float64 { return float64(time.Since(t0).Microseconds()) / 1000 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func countElements(s *protocol.Snapshot) int {
	n := 0
	for _, f := range s.Frames {
		n += len(f.Elements)
	}
	return n
}

// request is one line of the serve protocol.
type request struct {
	Op     string `json:"op"` // info, tabs, snap, cycles, rss, exec, connect, wait
	Tab    int    `json:"tab"`
	Mode   string `json:"mode"`
	Budget int    `json:"budget"`
	// cycles: N snapshot + click rounds clicking the element named Click,
	// with the host's RSS read after each round listed in At.
	N     int    `json:"n"`
	Click string `json:"click"`
	At    []int  `json:"at"`
	// exec: the command line, variables added to the environment, and
	// whether to return its stdout and stderr.
	Argv   []string `json:"argv"`
	Env    []string `json:"env"`
	Output bool     `json:"output"`
	// wait: the text to wait for.
	Text string `json:"text"`
	// snap: leave the frames out of the reply, as grip mcp and the plain
	// grip snapshot ask (SnapshotArgs.TextOnly).
	TextOnly bool `json:"text_only"`
}

// serve answers one JSON request per stdin line with one JSON line, so the
// Node driver can interleave socket snapshots with the other tools over one
// long-lived connection.
func serve() error {
	ctx := context.Background()
	c, err := connect(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			printJSON(map[string]any{"error": err.Error()})
			continue
		}
		res, err := handle(ctx, c, req)
		if err != nil {
			printJSON(map[string]any{"error": err.Error()})
			continue
		}
		printJSON(res)
	}
	return in.Err()
}

func handle(ctx context.Context, c *client.Client, req request) (any, error) {
	switch req.Op {
	case "info":
		return c.Info, nil
	case "tabs":
		var res protocol.TabsResult
		t0 := time.Now()
		err := c.Call(ctx, protocol.OpTabs, struct{}{}, &res)
		return map[string]any{"tabs": res.Tabs, "ms": msSince(t0)}, err
	case "exec":
		return runTimed(req.Argv, req.Env, req.Output)
	case "connect":
		return connectOnce(ctx)
	case "wait":
		// One OpWait for text, as grip wait --text sends it.
		var res protocol.ActionResult
		err := c.Call(ctx, protocol.OpWait, protocol.WaitArgs{Tab: req.Tab, Text: req.Text, TimeoutMS: 10000}, &res)
		return map[string]any{"ok": err == nil}, err
	case "rss":
		rss, err := vmRSS(c.Info.PID)
		return map[string]any{"pid": c.Info.PID, "rss_kb": rss}, err
	case "snap":
		var snap protocol.Snapshot
		t0 := time.Now()
		err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: req.Tab, Mode: req.Mode, Budget: req.Budget, Timings: true, TextOnly: req.TextOnly}, &snap)
		ms := msSince(t0)
		if err != nil {
			return nil, err
		}
		return map[string]any{"ms": ms, "elements": countElements(&snap), "tokens": snap.Tokens, "omitted": snap.Omitted,
			"skipped": len(snap.SkippedFrames), "text": snap.Text, "timings": snap.Timings}, nil
	case "cycles":
		return cycles(ctx, c, req)
	}
	return nil, fmt.Errorf("unknown op %q", req.Op)
}

// cycles runs N rounds of snapshot + click on the element named req.Click
// (found in each new snapshot, as an agent would) and reads the host's
// VmRSS after the rounds listed in req.At.
func cycles(ctx context.Context, c *client.Client, req request) (any, error) {
	at := map[int]bool{}
	for _, a := range req.At {
		at[a] = true
	}
	rss := map[string]int{}
	if kb, err := vmRSS(c.Info.PID); err == nil {
		rss["0"] = kb
	}
	var snapMS, clickMS []float64
	refused := map[string]int{}
	for i := 1; i <= req.N; i++ {
		var snap protocol.Snapshot
		t0 := time.Now()
		if err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: req.Tab}, &snap); err != nil {
			return nil, fmt.Errorf("cycle %d: snapshot: %w", i, err)
		}
		snapMS = append(snapMS, msSince(t0))
		ref := ""
		for _, f := range snap.Frames {
			for _, e := range f.Elements {
				if ref == "" && e.Name == req.Click {
					ref = e.Ref
				}
			}
		}
		if ref == "" {
			return nil, fmt.Errorf("cycle %d: no element named %q", i, req.Click)
		}
		t1 := time.Now()
		var res protocol.ActionResult
		if err := c.Call(ctx, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick, Target: ref, Tab: req.Tab}, &res); err != nil {
			var perr *protocol.Error
			if errors.As(err, &perr) {
				refused[string(perr.Code)]++
			} else {
				return nil, fmt.Errorf("cycle %d: click: %w", i, err)
			}
		}
		clickMS = append(clickMS, msSince(t1))
		if at[i] {
			kb, err := vmRSS(c.Info.PID)
			if err != nil {
				return nil, err
			}
			rss[strconv.Itoa(i)] = kb
		}
	}
	var st protocol.Status
	_ = c.Call(ctx, protocol.OpStatus, struct{}{}, &st)
	return map[string]any{"pid": c.Info.PID, "rss_kb": rss, "snap_ms_median": median(snapMS), "click_ms_median": median(clickMS),
		"refused": refused, "live_refs": st.LiveRefs, "inactive_refs": st.InactiveRefs, "next_ref": st.NextRef}, nil
}

// vmRSS reads VmRSS (kB) from /proc/PID/status.
func vmRSS(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, errors.New("no VmRSS line")
}
