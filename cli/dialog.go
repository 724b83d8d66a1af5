package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// `grip dialog` shows the JavaScript dialog a tab shows (or says there is
// none); `grip dialog accept [--text T]` and `grip dialog dismiss` answer
// it, and reply like any action with what the page did next.
func cmdDialog(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newActFlags(a, "dialog")
	var src textSource
	text := f.String("text", "", "the answer to a prompt (accept only)")
	f.StringVar(&src.file, "text-file", "", "read the prompt's answer from this file")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) == 0 {
		if *text != "" || src.file != "" {
			return *f.json, usagef("--text goes with grip dialog accept")
		}
		return *f.json, showDialog(ctx, a, f)
	}
	if len(pos) > 1 {
		return *f.json, usagef("usage: grip dialog [accept [--text T] | dismiss] [--tab ID]")
	}
	var action string
	switch pos[0] {
	case "accept":
		action = protocol.ActDialogAccept
	case "dismiss":
		action = protocol.ActDialogDismiss
		if *text != "" || src.file != "" {
			return *f.json, usagef("dismiss takes no --text")
		}
	default:
		return *f.json, usagef("unknown dialog subcommand %q (accept, dismiss)", pos[0])
	}
	args := f.args(action)
	args.Text = *text
	if src.file != "" {
		if *text != "" {
			return *f.json, usagef("give --text or --text-file, not both")
		}
		if args.Text, err = readTextFile(src); err != nil {
			return *f.json, err
		}
	}
	ops, done, err := a.ops(ctx, f.flags)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Act(ctx, args)
	if err != nil {
		return *f.json, err
	}
	a.printAction(f.flags, "ok: dialog "+pos[0], *res)
	return *f.json, nil
}

// showDialog prints the tab's dialog, or that there is none.
func showDialog(ctx context.Context, a *App, f *actFlags) error {
	ops, done, err := a.ops(ctx, f.flags)
	if err != nil {
		return err
	}
	defer done()
	res, err := ops.Dialog(ctx, *f.tab)
	if err != nil {
		return err
	}
	if *f.json {
		a.printJSON(res)
		return nil
	}
	switch {
	case res.Dialog != nil:
		fmt.Fprintf(a.Stdout, "tab %d: %s\n", res.Tab.ID, frames.DialogLine(res.Dialog))
	case res.Watching:
		fmt.Fprintf(a.Stdout, "tab %d: no dialog open\n", res.Tab.ID)
	default:
		fmt.Fprintf(a.Stdout, "tab %d: no dialog seen (grip sees the dialogs that open while it works on a tab)\n", res.Tab.ID)
	}
	return nil
}

// readTextFile reads the text of --text-file.
func readTextFile(src textSource) (string, error) {
	fh, err := os.Open(src.file)
	if err != nil {
		return "", usagef("--text-file: %v", err)
	}
	defer fh.Close()
	return src.read(src.file, fh)
}

// tabNotes is what `grip tabs` adds after a tab's URL, tab-separated: the
// tab that opened it, the dialog it shows, the session that owns it.
func tabNotes(t protocol.Tab) string {
	return frames.TabNotes(t, frames.NotesLayout{Open: "\t(", Close: ")", Opener: "opened by %d", Owner: "\tsession "})
}
