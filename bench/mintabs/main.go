// Command mintabs is the floor under `grip tabs` for bench/clicost.mjs:
// the same socket call (find the host, dial, hello, OpTabs) and one line
// per tab, in a binary that links only client/ and protocol/. The gap
// between it and `grip tabs` is what the rest of grip's one binary costs
// each start (its packages' init, a larger runtime start).
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/protocol"
)

func main() {
	ctx := context.Background()
	c, err := client.Connect(ctx, client.Options{Wait: 10 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mintabs:", err)
		os.Exit(1)
	}
	defer c.Close()
	var res protocol.TabsResult
	if err := c.Call(ctx, protocol.OpTabs, struct{}{}, &res); err != nil {
		fmt.Fprintln(os.Stderr, "mintabs:", err)
		os.Exit(1)
	}
	for _, t := range res.Tabs {
		fmt.Printf("%d\t%s\t%s\n", t.ID, t.Title, t.URL)
	}
}
