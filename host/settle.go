package host

import (
	"github.com/grip-dev/grip/protocol"
)

// settle is the pipeline's place for settling (docs/settling.md,
// "Settling"): it decides whether the read back of an action waits until
// the page has settled — no frame changed what it shows for a quiet period
// and none shows a busy indicator, within a bound. The waiting is done
// where the changes are seen, in the extension and the kernel, by events,
// as part of the read itself: a page that is already quiet is read at
// once, with no extra round trip.
//
// Nothing is waited for when the agent asked not to, when the action
// opened a dialog (the page waits for it) or left a navigation loading
// (the reply says so).
func (h *Host) settle(a *action, done performed) bool {
	fx := done.effects
	return !a.args.NoSettle && !fx.Closed && fx.Dialog == nil && (fx.Navigation == nil || !fx.Navigation.Loading)
}

// tellSettled puts into an action's reply whether its page had settled
// when it was read, and how many requests the action started.
func tellSettled(res *protocol.ActionResult, s *protocol.SettleReply) {
	if s == nil {
		return
	}
	settled := s.Settled
	res.Settled = &settled
	res.Requests = s.Requests
	res.PageChanged = s.Mutated
	res.Busy, res.Live = "", false
	if !settled {
		res.Busy, res.Live = s.Busy, s.Live
	}
}
