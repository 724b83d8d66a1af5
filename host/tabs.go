package host

import (
	"context"
	"slices"
	"sync"

	"github.com/grip-dev/grip/refcache"
)

// tabQueues serialises operations per tab and keeps each tab's epoch: a
// number that grows whenever the tab's top document changes, so a late
// operation from a task that saw an older document is refused before it
// is dispatched.
type tabQueues struct {
	mu     sync.Mutex
	queues map[int]chan struct{} // guarded by mu; a one-slot semaphore per tab
	epochs map[int]tabEpoch      // guarded by mu
	shown  map[int][]uint64      // guarded by mu; the refs of each tab's last read, ascending
	clock  uint64                // guarded by mu; the last epoch handed out
}

type tabEpoch struct {
	epoch  uint64
	topDoc string
}

func newTabQueues() *tabQueues {
	return &tabQueues{queues: map[int]chan struct{}{}, epochs: map[int]tabEpoch{}, shown: map[int][]uint64{}}
}

// lock waits for the tab's turn; the returned func releases it.
func (q *tabQueues) lock(ctx context.Context, tab int) (func(), error) {
	q.mu.Lock()
	ch := q.queues[tab]
	if ch == nil {
		ch = make(chan struct{}, 1)
		q.queues[tab] = ch
	}
	q.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// observe records the tab's top document and returns its epoch, starting
// a new epoch when the document is not the one seen before.
func (q *tabQueues) observe(tab int, topDoc string) uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.epochs[tab]
	if !ok || (topDoc != "" && e.topDoc != topDoc) {
		q.clock++
		e = tabEpoch{epoch: q.clock, topDoc: topDoc}
		q.epochs[tab] = e
	}
	return e.epoch
}

// current returns the tab's epoch, 0 when the tab was never seen.
func (q *tabQueues) current(tab int) uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.epochs[tab].epoch
}

// forget drops a closed tab and returns the refs its last read showed.
func (q *tabQueues) forget(tab int) []uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.epochs, tab)
	gone := q.shown[tab]
	delete(q.shown, tab)
	return gone
}

// swapShown records refs as the tab's latest read and returns what was
// added and what is gone since the previous one.
func (q *tabQueues) swapShown(tab int, refs []uint64) refcache.Diff {
	cur := slices.Clone(refs)
	slices.Sort(cur)
	cur = slices.Compact(cur)
	q.mu.Lock()
	prev := q.shown[tab]
	q.shown[tab] = cur
	q.mu.Unlock()
	d := refcache.Diff{Added: []uint64{}, Gone: []uint64{}}
	i, j := 0, 0
	for i < len(prev) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(prev) && prev[i] < cur[j]):
			d.Gone = append(d.Gone, prev[i])
			i++
		case i == len(prev) || cur[j] < prev[i]:
			d.Added = append(d.Added, cur[j])
			j++
		default:
			i++
			j++
		}
	}
	return d
}
