// Command walk is scripts/walk: grip's walker (package walk).
//
//	walk URL [--steps N] [--seed S] [--avoid TEXT]... [--cdp PORT] [--profile P] [--grip BIN] [--serve DIR] [-v]
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/grip-dev/grip/walk"
)

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	f := flag.NewFlagSet("walk", flag.ContinueOnError)
	steps := f.Int("steps", 200, "how many steps to take")
	seed := f.Uint64("seed", 0, "the walk's seed (0: one from the clock, printed first)")
	var avoid list
	f.Var(&avoid, "avoid", "leave alone every element whose name contains TEXT (repeatable)")
	cdp := f.Int("cdp", 0, "observe the running browser with this debugging port (its grip host found as every grip command finds it); 0 launches one")
	profile := f.String("profile", "", "the grip profile of that browser, when several are connected")
	grip := f.String("grip", "grip", "the grip binary that launches the walk's browser")
	verbose := f.Bool("v", false, "say each step on stderr")
	unblocked := f.Bool("unblocked-frame", false, "check the checker: frame the walk's marker page with no policy rule against it (invariant 5 must fire)")
	target := f.Float64("target", 100, "judge pictures and saids as shares: exit 1 only when fewer than this percent of the judged replies left a true picture or kept what the live regions said (every other invariant's violation still fails the walk)")
	serve := f.String("serve", "", "serve this folder on 127.0.0.1 and walk URL, a path in it (the e2e fixture pages)")
	// Flags may come after the URL, as the usage line writes them.
	var pos []string
	args := os.Args[1:]
	for {
		if err := f.Parse(args); err != nil {
			os.Exit(2)
		}
		if f.NArg() == 0 {
			break
		}
		pos = append(pos, f.Arg(0))
		args = f.Args()[1:]
	}
	if len(pos) != 1 {
		fmt.Fprintln(os.Stderr, "usage: walk URL [--steps N] [--seed S] [--avoid TEXT]... [--cdp PORT] [--target PCT]")
		os.Exit(2)
	}
	if *serve != "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		go http.Serve(ln, http.FileServer(http.Dir(*serve)))
		pos[0] = "http://" + ln.Addr().String() + "/" + strings.TrimPrefix(pos[0], "/")
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano()%1_000_000) + 1
	}
	fmt.Printf("walk: %s, seed %d, %d steps\n", pos[0], *seed, *steps)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := walk.Config{URL: pos[0], Steps: *steps, Seed: *seed, Avoid: avoid, CDP: *cdp, Profile: *profile, Grip: *grip, Out: os.Stdout, Unblocked: *unblocked}
	if *verbose {
		cfg.Log = os.Stderr
	}
	sum, err := walk.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if !walk.Passed(sum, *target) {
		os.Exit(1)
	}
}
