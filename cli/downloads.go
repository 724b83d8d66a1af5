package cli

import (
	"context"
	"fmt"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// cmdDownloads lists the browser profile's downloads, newest first: one
// line each, id, state, bytes, tab, then the full path (or the URL while
// Chrome has not picked a path).
func cmdDownloads(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "downloads")
	limit := f.Int("limit", 20, "list at most this many")
	tab := f.Int("tab", 0, "only the downloads of this tab (and those of no known tab)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return *f.json, usagef("downloads takes flags only, got %q", pos[0])
	}
	if *limit <= 0 {
		return *f.json, usagef("--limit must be positive")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Downloads(ctx, protocol.DownloadsArgs{Limit: *limit, Tab: *tab})
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(res)
		return true, nil
	}
	if len(res.Downloads) == 0 {
		fmt.Fprintln(a.Stdout, "no downloads")
		return false, nil
	}
	for _, d := range res.Downloads {
		fmt.Fprintln(a.Stdout, downloadLine(d))
	}
	return false, nil
}

// downloadLine is one download as `grip downloads` prints it, tab-separated:
// "3  complete  1234 bytes  tab 412  /home/me/Downloads/report.csv  https://…".
func downloadLine(d protocol.Download) string {
	p := frames.Download(d)
	tab := "tab ?"
	if p.Tab != 0 {
		tab = fmt.Sprintf("tab %d", p.Tab)
	}
	return fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s", d.ID, p.State, p.Size, tab, p.Path, d.URL)
}
