package host

import "context"

// settle is the pipeline's place for waiting, after an action, until the
// page has settled before its reply is read (docs/ARCHITECTURE.md, "What
// an action did"). The read back that follows retries a page that is
// still navigating; nothing more waits yet.
func (h *Host) settle(ctx context.Context, a *action, done performed) {}
