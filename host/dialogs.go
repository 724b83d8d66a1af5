package host

import (
	"context"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// JavaScript dialogs (docs/dialogs.md, "Dialogs"): the extension sees
// a tab's dialog open and answers it; here are `grip dialog` (show) and
// `grip dialog accept|dismiss`, and the snapshot of a tab whose page is
// stopped behind one.

// showDialog answers OpDialog: the tab's dialog, or nil.
func (h *Host) showDialog(ctx context.Context, args protocol.DialogArgs) (*protocol.DialogResult, error) {
	tab, err := h.resolveTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	var rep protocol.DialogReply
	if err := callExt(ctx, h, protocol.ExtDialog, protocol.DialogParams{TabID: tab, Action: protocol.DialogShow}, &rep); err != nil {
		return nil, err
	}
	res := &protocol.DialogResult{Tab: protocol.TabRef{ID: tab}, Dialog: rep.Dialog, Watching: rep.Watching}
	var info protocol.TabRef
	if err := callExt(ctx, h, protocol.ExtTabInfo, protocol.TabParams{TabID: tab}, &info); err == nil {
		res.Tab = info
	}
	return res, nil
}

// answerDialog accepts or dismisses the tab's dialog; the pipeline then
// reports like any action what the page did next: the navigation a
// beforeunload let go, the change a confirm allowed, the next dialog.
func (h *Host) answerDialog(ctx context.Context, a *action) (performed, error) {
	action := protocol.DialogDismiss
	if a.spec.Name == protocol.ActDialogAccept {
		action = protocol.DialogAccept
	} else if a.args.Text != "" {
		return performed{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give text only to accept a prompt", "dismiss takes no text")
	}
	var rep protocol.DialogReply
	if err := callExt(ctx, h, protocol.ExtDialog, protocol.DialogParams{TabID: a.target.tab, Action: action, Text: a.args.Text}, &rep); err != nil {
		return performed{}, err
	}
	return performed{detail: rep.Detail, effects: rep.ActEffects}, nil
}

// dialogSnapshot is the snapshot of a tab that shows a dialog: its header
// and the dialog, no elements.
func (h *Host) dialogSnapshot(tab int, d *dialogOpen) *protocol.Snapshot {
	ref := d.tab
	if ref.ID == 0 {
		ref.ID = tab
	}
	snap := &protocol.Snapshot{Tab: ref, Epoch: h.tabs.current(tab), Frames: []protocol.Frame{}, SkippedFrames: []protocol.SkippedFrame{},
		Dialog: d.dialog, Text: frames.DialogSnapshotText(ref, d.dialog)}
	snap.Tokens = frames.Tokens(snap.Text)
	return snap
}
