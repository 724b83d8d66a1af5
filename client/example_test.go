package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/protocol"
)

// fakeHost serves the agent socket the way grip's host does, with canned
// answers for one page, so the examples run without a browser. It returns
// the runtime dir it published itself in, and a stop function.
func fakeHost() (runtimeDir string, stop func()) {
	dir, err := os.MkdirTemp("", "grip-example")
	if err != nil {
		panic(err)
	}
	info := protocol.HostInfo{Protocol: protocol.Version, HostVersion: "example", Profile: "example1", PID: os.Getpid(),
		Socket: filepath.Join(dir, "example1.sock")}
	ln, err := net.Listen("unix", info.Socket)
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(info)
	if err := os.WriteFile(filepath.Join(dir, "example1.json"), b, 0o600); err != nil {
		panic(err)
	}
	answer := func(req protocol.Request) (any, *protocol.Error) {
		switch req.Op {
		case protocol.OpHello:
			return info, nil
		case protocol.OpSnapshot:
			return protocol.Snapshot{Tab: protocol.TabRef{ID: 7, URL: "https://shop.example/", Title: "Shop"},
				Text: "Tab 7 · Shop · https://shop.example/\n=== Frame: 0 (Top: https://shop.example/) ===\n@e1: [textbox 'Email']\n@e2: [button 'Subscribe']\n"}, nil
		case protocol.OpAct:
			var args protocol.ActArgs
			_ = protocol.Unmarshal(req.Args, &args)
			if args.Target == "@e2" {
				return nil, protocol.Errorf(protocol.CodeNotActionable, protocol.BoundaryActionability,
					"close the dialog, then take a new snapshot", "occluded by [button 'Accept cookies']")
			}
			return protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7}, Detail: "value is now 'ada@example.com'",
				Changes: protocol.Changes{Added: []string{}, Gone: []string{}}}, nil
		}
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "unknown operation %q", req.Op)
	}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				r, w := protocol.NewSocketReader(conn, protocol.MaxRequestFrame), protocol.NewSocketWriter(conn, protocol.MaxReplyFrame)
				for {
					var req protocol.Request
					if r.Read(&req) != nil {
						return
					}
					res, perr := answer(req)
					rep := protocol.Reply{ID: req.ID, Error: perr}
					if perr == nil {
						rep.Result, _ = protocol.Marshal(res)
					}
					if w.Write(rep) != nil {
						return
					}
				}
			}()
		}
	}()
	return dir, func() { ln.Close(); os.RemoveAll(dir) }
}

// A runner connects once, reads the page, and acts on the refs it read.
func Example() {
	runtimeDir, stop := fakeHost()
	defer stop()
	ctx := context.Background()

	s, err := client.NewSession(ctx, client.Options{RuntimeDir: runtimeDir, Wait: 10 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	snap, err := s.Snapshot(ctx, protocol.SnapshotArgs{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(snap.Text)
	res, err := s.Fill(ctx, "@e1", "ada@example.com")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Detail)
	// Output:
	// Tab 7 · Shop · https://shop.example/
	// === Frame: 0 (Top: https://shop.example/) ===
	// @e1: [textbox 'Email']
	// @e2: [button 'Subscribe']
	// value is now 'ada@example.com'
}

// Refusals are values with a code: a runner tells a covered button from a
// stale ref with errors.Is, and shows the agent the hint.
func ExampleSession_Act_refused() {
	runtimeDir, stop := fakeHost()
	defer stop()
	ctx := context.Background()
	s, err := client.NewSession(ctx, client.Options{RuntimeDir: runtimeDir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	_, err = s.Click(ctx, "@e2")
	var perr *protocol.Error
	switch {
	case errors.Is(err, protocol.ErrStaleRef):
		fmt.Println("take a new snapshot")
	case errors.As(err, &perr) && perr.Code == protocol.CodeNotActionable:
		fmt.Printf("%s at the %s boundary: %s; %s\n", perr.Code, perr.Boundary, perr.Message, perr.Hint)
	}
	// Output:
	// not_actionable at the actionability boundary: occluded by [button 'Accept cookies']; close the dialog, then take a new snapshot
}
