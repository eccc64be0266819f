package execute

import (
	"context"
)

// newRunState checks a job and returns the bookkeeping of running it: each
// test's limit (see TimePolicy.EachLimit), also in seconds, the distinct programs
// and which indexes of job.Programs each stands for, and an empty matrix.
// The caller sets keys.
func newRunState(job Job, each func(int, []Result)) (*runState, error) {
	limits, err := job.EachLimit(len(job.Tests))
	if err != nil {
		return nil, err
	}
	st := &runState{job: job, each: each, limits: limits, timeouts: make([]float64, len(job.Tests))}
	for j, t := range limits {
		st.timeouts[j] = t.Seconds()
	}
	index := map[string]int{}
	for i, prog := range job.Programs {
		d, ok := index[prog]
		if !ok {
			d = len(st.distinct)
			index[prog] = d
			st.distinct = append(st.distinct, prog)
			st.users = append(st.users, nil)
		}
		st.users[d] = append(st.users[d], i)
	}
	st.matrix = &Matrix{Programs: job.Programs, Tests: job.Tests, Results: make([][]Result, len(job.Programs))}
	return st, nil
}

// save queues the fresh results of distinct program d for the cache, if
// the Run has one; they are written in batches (see cacheBatch).
func (st *runState) save(ctx context.Context, d int, fresh map[int]Result) error {
	if st.saved == nil {
		return nil
	}
	return st.saved.add(ctx, d, fresh)
}

// writeSaved writes at once what the Run has gathered so far (see save),
// for results that are dear to compute again (a remote batch, a JVM
// program): a coordinator killed outright must not lose them.
func (st *runState) writeSaved(ctx context.Context) error {
	if st.saved == nil {
		return nil
	}
	return st.saved.flush(ctx)
}

// saveRest writes the Run's results still waiting for the cache, also
// when ctx has ended (what was computed is not thrown away). err is how
// the Run ended; it is returned, or the cache's error if err is nil.
func (st *runState) saveRest(ctx context.Context, err error) error {
	if st.saved == nil {
		return err
	}
	if ferr := st.saved.flush(ctx); ferr != nil && err == nil {
		return ferr
	}
	return err
}
