package prober

// triggers is a first-in first-out queue of workers, kept in chunks that
// are reused once emptied: a fleet's pods start at once, and so may
// queue a trigger each at the same instant; a slice would grow by copies.
// Its zero value is empty.
type triggers struct {
	head, tail *triggerChunk // pop from head at r, push to tail at w
	free       *triggerChunk // emptied chunks, for reuse
	r, w       int
}

// triggerChunk is a run of a triggers queue.
type triggerChunk struct {
	ws   [254]*worker
	next *triggerChunk
}

// push adds pr at the end of q.
func (q *triggers) push(pr *worker) {
	if q.tail == nil || q.w == len(q.tail.ws) {
		q.grow()
	}
	q.tail.ws[q.w] = pr
	q.w++
}

// grow adds an empty chunk at the end of q.
func (q *triggers) grow() {
	c := q.free
	if c != nil {
		q.free = c.next
		c.next = nil
	} else {
		c = new(triggerChunk)
	}
	if q.tail == nil {
		q.head, q.r = c, 0
	} else {
		q.tail.next = c
	}
	q.tail, q.w = c, 0
}

// pop removes the first worker of q, which must not be empty, and
// returns it.
func (q *triggers) pop() *worker {
	c := q.head
	pr := c.ws[q.r]
	c.ws[q.r] = nil
	q.r++
	switch {
	case c == q.tail && q.r == q.w: // empty: start the chunk over
		q.r, q.w = 0, 0
	case q.r == len(c.ws):
		q.head, q.r = c.next, 0
		c.next, q.free = q.free, c
	}
	return pr
}
