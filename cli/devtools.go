package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/grip-dev/grip/internal/privatefile"
	"github.com/grip-dev/grip/protocol"
)

// The developer tools (docs/devtools.md, "Developer tools"): console,
// network, eval and pdf; screenshot's element and refs forms are here too.
func cmdConsole(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "console")
	tab := f.Int("tab", 0, "tab id (default: the session's tab)")
	level := f.String("level", protocol.LevelInfo, "error, warning, info or debug: this level and the more severe ones")
	budget := f.Int("budget", 0, "token allowance (default 8000): the newest messages are kept")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return *f.json, usagef("console takes flags only, got %q", pos[0])
	}
	if *budget < 0 {
		return *f.json, usagef("--budget must be positive")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Console(ctx, protocol.ConsoleArgs{Tab: *tab, Level: *level, Budget: *budget})
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(res)
		return true, nil
	}
	fmt.Fprintln(a.Stdout, res.Text)
	return false, nil
}

func cmdNetwork(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "network")
	tab := f.Int("tab", 0, "tab id (default: the session's tab)")
	filter := f.String("filter", "", "only requests whose URL contains this")
	all := f.Bool("all", false, "list successful static resources too (images, fonts, style sheets, scripts)")
	budget := f.Int("budget", 0, "token allowance (default 8000): the newest requests are kept")
	body := f.Int("body", 0, "print the response body of this request (its id in the list)")
	maxBytes := f.Int("max-bytes", protocol.DefaultBodyBytes, "with --body: cut the body here")
	out := f.String("o", "", "with --body: write the body to this new file")
	force := f.Bool("force", false, "with -o: replace an existing file (never a link)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return *f.json, usagef("network takes flags only, got %q", pos[0])
	}
	if *budget < 0 || *maxBytes <= 0 || *body < 0 {
		return *f.json, usagef("--budget, --max-bytes and --body must be positive")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	if *body > 0 {
		b, err := ops.NetworkBody(ctx, *tab, *body, *maxBytes)
		if err != nil {
			return *f.json, err
		}
		return *f.json, a.printBody(f, b, *out, *force)
	}
	res, err := ops.Network(ctx, protocol.NetworkArgs{Tab: *tab, Filter: *filter, All: *all, Budget: *budget})
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(res)
		return true, nil
	}
	fmt.Fprintln(a.Stdout, res.Text)
	return false, nil
}

// printBody writes a response body: to a file with -o, as text when it is
// text, else says how to get it.
func (a *App) printBody(f *flags, b *protocol.NetworkBody, out string, force bool) error {
	cut := ""
	if b.Truncated {
		cut = fmt.Sprintf(", cut at %d of %d bytes (--max-bytes N)", len(b.Body), b.Bytes)
	}
	if out != "" {
		if err := writeNew(out, b.Body, force); err != nil {
			return err
		}
		if *f.json {
			a.printJSON(map[string]any{"ok": true, "id": b.ID, "url": b.URL, "path": out, "bytes": len(b.Body), "truncated": b.Truncated})
		} else {
			fmt.Fprintf(a.Stdout, "wrote %s (%d bytes%s)\n", out, len(b.Body), cut)
		}
		return nil
	}
	if *f.json {
		a.printJSON(b)
		return nil
	}
	if b.Text == "" && len(b.Body) > 0 {
		fmt.Fprintf(a.Stdout, "request %d: %s, %d bytes of %s, not text: grip network --body %d -o FILE writes it\n", b.ID, b.URL, b.Bytes, b.MimeType, b.ID)
		return nil
	}
	fmt.Fprint(a.Stdout, b.Text)
	if !strings.HasSuffix(b.Text, "\n") {
		fmt.Fprintln(a.Stdout)
	}
	if cut != "" {
		fmt.Fprintf(a.Stderr, "grip: the body is%s\n", cut)
	}
	return nil
}

func cmdEval(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "eval")
	tab := f.Int("tab", 0, "tab id (default: the session's tab)")
	file := f.String("file", "", "read the expression from this file instead")
	timeout := f.Duration("timeout", 10*time.Second, "stop the expression after this long")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	var expr string
	switch {
	case *file != "" && len(pos) == 0:
		b, err := os.ReadFile(*file)
		if err != nil {
			return *f.json, usagef("--file: %v", err)
		}
		expr = string(b)
	case *file == "" && len(pos) == 1 && pos[0] == "-":
		if expr, err = (textSource{}).read("stdin", a.Stdin); err != nil {
			return *f.json, err
		}
	case *file == "" && len(pos) == 1:
		expr = pos[0]
	default:
		return *f.json, usagef("usage: grip eval EXPR (or - for stdin, or --file F)")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Eval(ctx, protocol.EvalArgs{Tab: *tab, Expression: expr, TimeoutMS: int(timeout.Milliseconds())})
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(res)
		return true, nil
	}
	fmt.Fprintln(a.Stdout, evalText(*res))
	return false, nil
}

// evalText is a result as eval prints it: its JSON, or what the browser
// says of a value JSON cannot hold.
func evalText(r protocol.EvalResult) string {
	switch {
	case r.Text != "":
		return r.Text
	case r.Value == nil && r.Type == "undefined":
		return "undefined"
	}
	b, err := json.Marshal(r.Value)
	if err != nil {
		return fmt.Sprint(r.Value)
	}
	return string(b)
}

func cmdPDF(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "pdf")
	tab := f.Int("tab", 0, "tab id (default: the session's tab)")
	out := f.String("o", "", "write the PDF here, a new file (default page-TAB-TIME.pdf)")
	force := f.Bool("force", false, "with -o: replace an existing file (never a link)")
	landscape := f.Bool("landscape", false, "landscape pages")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return *f.json, usagef("pdf takes flags only, got %q", pos[0])
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.PDF(ctx, protocol.PDFArgs{Tab: *tab, Landscape: *landscape})
	if err != nil {
		return *f.json, err
	}
	path := *out
	if path == "" {
		path = fmt.Sprintf("page-%d-%s.pdf", res.Tab.ID, time.Now().Format("20060102-150405"))
	}
	if err := writeNew(path, res.PDF, *force && *out != ""); err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(map[string]any{"ok": true, "tab": res.Tab, "path": path, "bytes": len(res.PDF)})
	} else {
		fmt.Fprintf(a.Stdout, "wrote %s (%d bytes)\n", path, len(res.PDF))
	}
	return *f.json, nil
}

// writeNew writes data to a new file only the user can read, never
// through a link, and over an existing file only when force (--force)
// says so: then whole or not at all, and still never over a link
// (docs/files.md, "Files in and out").
func writeNew(path string, data []byte, force bool) error {
	if force {
		err := privatefile.Replace(path, data)
		if errors.Is(err, privatefile.ErrNotRegular) {
			return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"choose another file name", "%s is a link, a folder or a device; grip never writes through or over one, even with --force", path)
		}
		return err
	}
	err := privatefile.WriteNew(path, data)
	if errors.Is(err, fs.ErrExist) {
		if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"choose another file name", "%s is a link; grip never writes through one", path)
		}
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"choose a new file name, or pass --force to replace it", "%s already exists; grip does not overwrite files", path)
	}
	return err
}

// shapedScreenshot is grip screenshot @eN (one element) and grip
// screenshot --refs (the refs of a snapshot taken with it drawn on).
func (a *App) shapedScreenshot(ctx context.Context, f *flags, args protocol.ScreenshotShapeArgs, out string, force bool) error {
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return err
	}
	defer done()
	res, err := ops.ScreenshotShape(ctx, args)
	if err != nil {
		return err
	}
	path, err := writeScreenshot(out, res.Tab.ID, time.Now(), res.PNG, force)
	if err != nil {
		return err
	}
	if *f.json {
		a.printJSON(map[string]any{"ok": true, "tab": res.Tab, "path": path, "bytes": len(res.PNG), "width": res.Width,
			"height": res.Height, "clipped": res.Clipped, "grid": res.Grid, "left": res.Left, "top": res.Top, "refs": res.Refs, "snapshot": res.Snapshot})
		return nil
	}
	fmt.Fprintf(a.Stdout, "wrote %s (%d bytes, %d×%d", path, len(res.PNG), res.Width, res.Height)
	if res.Clipped {
		fmt.Fprintf(a.Stdout, ", the part of the element in the viewport, from %d,%d of its box", res.Left, res.Top)
	}
	if res.Grid > 0 {
		fmt.Fprintf(a.Stdout, ", a line every %d CSS px from its top-left corner: grip click %s --at X,Y", res.Grid, args.Target)
	}
	fmt.Fprintln(a.Stdout, ")")
	if args.Refs {
		drawn := make([]string, len(res.Refs))
		for i, r := range res.Refs {
			drawn[i] = r.Ref
		}
		fmt.Fprintf(a.Stdout, "%d refs drawn: %s\n", len(drawn), strings.Join(drawn, " "))
		if res.Snapshot != nil {
			fmt.Fprint(a.Stdout, res.Snapshot.Text)
		}
	}
	return nil
}

// cmdResize is `grip resize W H [--tab ID]`: the size of the window the
// tab is in, in a browser grip launched or a window of the session's own
// tabs (docs/window-size.md, "Window size").
func cmdResize(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "resize")
	tab := f.Int("tab", 0, "tab id (default: the session's tab)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	var w, h int
	if len(pos) == 1 {
		// W,H or WxH, as grip launch --window-size takes it.
		pos = strings.FieldsFunc(pos[0], func(r rune) bool { return r == ',' || r == 'x' })
	}
	if len(pos) != 2 {
		return *f.json, usagef("usage: grip resize WIDTH HEIGHT [--tab ID], e.g. grip resize 1280 800")
	}
	if w, err = strconv.Atoi(pos[0]); err == nil {
		h, err = strconv.Atoi(pos[1])
	}
	if err != nil {
		return *f.json, usagef("usage: grip resize WIDTH HEIGHT [--tab ID]: the sizes are whole CSS pixels, e.g. grip resize 1280 800")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Resize(ctx, *tab, w, h)
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(res)
		return true, nil
	}
	fmt.Fprintln(a.Stdout, resizeText(*res))
	return false, nil
}

// resizeText says what a resize did: "ok: window of tab 5 is 1280x800
// (viewport 1280x720)".
func resizeText(r protocol.ResizeResult) string {
	s := fmt.Sprintf("ok: window of tab %d is %dx%d", r.Tab.ID, r.Width, r.Height)
	if r.ViewportWidth > 0 {
		s += fmt.Sprintf(" (viewport %dx%d)", r.ViewportWidth, r.ViewportHeight)
	}
	return s
}
