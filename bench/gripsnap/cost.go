package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/protocol"
)

// The CLI's fixed cost (bench/clicost.mjs): a process run timed from Go,
// where starting one costs a fork and an exec and nothing of Node's, with
// the child's CPU from its resource usage; and the spans of `grip tabs`
// that a process run cannot separate (finding the host, dialling, the
// hello; the tabs call on an open connection).

// execResult is one timed process run.
type execResult struct {
	MS     float64 `json:"ms"`      // wall time, start to exit
	UserMS float64 `json:"user_ms"` // the child's user CPU (rusage)
	SysMS  float64 `json:"sys_ms"`  // the child's system CPU (rusage)
	MaxRSS int64   `json:"maxrss_kb"`
	MinFlt int64   `json:"minflt"` // minor page faults: pages of the binary and heap touched
	Stdout string  `json:"stdout,omitempty"`
	Stderr string  `json:"stderr,omitempty"`
}

// runTimed runs argv with env added to this process's environment and
// reports its wall time and resource usage; a non-zero exit is an error
// that carries the child's stderr.
func runTimed(argv, env []string, keepOutput bool) (execResult, error) {
	if len(argv) == 0 {
		return execResult{}, fmt.Errorf("exec: no command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	ms := msSince(t0)
	if err != nil {
		return execResult{}, fmt.Errorf("%s: %w: %s", argv[0], err, bytes.TrimSpace(errb.Bytes()))
	}
	r := execResult{MS: ms}
	addUsage(&r, cmd.ProcessState)
	if keepOutput {
		r.Stdout, r.Stderr = out.String(), errb.String()
	}
	return r, nil
}

// connectOnce times what `grip tabs` does before its one call: find the
// host in the runtime dir, dial, hello. Then the tabs call on that
// connection, timed apart.
func connectOnce(ctx context.Context) (map[string]float64, error) {
	t0 := time.Now()
	c, err := client.Connect(ctx, client.Options{Wait: 10 * time.Second})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	connectMS := msSince(t0)
	t1 := time.Now()
	var res protocol.TabsResult
	if err := c.Call(ctx, protocol.OpTabs, struct{}{}, &res); err != nil {
		return nil, err
	}
	return map[string]float64{"connect_ms": connectMS, "tabs_ms": msSince(t1)}, nil
}
