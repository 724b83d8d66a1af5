package cli

import (
	"context"
	"fmt"

	"github.com/grip-dev/grip/protocol"
)

// cmdRead is `grip read TARGET [--from N] [--budget N] [--tab ID]`: the
// whole text of one element, which a snapshot's line cuts, in parts the
// size of the budget; the last line names the command that reads on
// (docs/reading.md, "Reading one element").
func cmdRead(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "read")
	from := f.Int("from", 0, "start at this character of the element's text (the --from a read's last line names)")
	budget := f.Int("budget", 0, fmt.Sprintf("token allowance (default %d)", protocol.DefaultBudget))
	tab := f.Int("tab", 0, "the tab a snapshot line is looked for in (default: the session's tab; a ref names its own)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) != 1 {
		return *f.json, usagef(`usage: grip read TARGET [--from N] [--budget N], e.g. grip read @e5 or grip read "text 'Terms of sale'"`)
	}
	if *from < 0 || *budget < 0 {
		return *f.json, usagef("--from and --budget must not be negative")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Read(ctx, protocol.ReadArgs{Target: pos[0], Tab: *tab, From: *from, Budget: *budget})
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(res)
		return true, nil
	}
	fmt.Fprint(a.Stdout, res.Text)
	return false, nil
}
