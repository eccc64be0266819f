package execute

import (
	"encoding/json"
	"testing"
	"time"
)

// TestWireFormatsUnchanged pins what crosses a process boundary: a Job as
// the NATS job queue carries it (and a remote batch's content address),
// and the run request the Python worker (pyworker) reads. A change here breaks workers and
// coordinators of another version, or the harness.
func TestWireFormatsUnchanged(t *testing.T) {
	tests := []Test{{Code: "assert f() is None"}, {Code: "assert f() == 1", Input: "f()", Expected: "1"}, {Code: "x"}}
	job := Job{Programs: []string{"def f(): pass"}, Tests: tests, AllowObjects: true, TimePolicy: TimePolicy{
		Timeout: 2 * time.Second, Timeouts: []time.Duration{time.Second, 1500 * time.Millisecond, 0},
		DegradeAfter: 2, SkipAfter: 4, SkipFrom: 1,
	}}
	st, err := newRunState(job, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.keys = newCacheKeys(st.distinct, job.Tests, st.timeouts, job.AllowObjects)
	b := NewRemote(RemoteOptions{}).batch(st, []int{0}, []int{1, 2})
	withLimit := job
	withLimit.DegradeLimit = 250 * time.Millisecond
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"job", job, `{"Programs":["def f(): pass"],"Tests":[{"code":"assert f() is None"},{"code":"assert f() == 1","input":"f()","expected":"1"},{"code":"x"}],"Timeout":2000000000,"Timeouts":[1000000000,1500000000,0],"DegradeAfter":2,"DegradeLimit":0,"SkipAfter":4,"SkipFrom":1,"AllowObjects":true}`},
		{"batch", b.Job, `{"Programs":["def f(): pass"],"Tests":[{"code":"assert f() == 1","input":"f()","expected":"1"},{"code":"x"}],"Timeout":0,"Timeouts":[1500000000,3000000000],"DegradeAfter":2,"DegradeLimit":0,"SkipAfter":4,"SkipFrom":0,"AllowObjects":true}`},
		{"request", newRunRequest(&st.job, tests, st.timeouts, []wireProgram{{ID: 0, Code: "p"}}, Limits{Memory: 1 << 30}),
			`{"op":"run","tests":[{"code":"assert f() is None"},{"code":"assert f() == 1","input":"f()","expected":"1"},{"code":"x"}],"timeouts":[1,1.5,3],"programs":[{"id":0,"code":"p"}],"limits":{"memory":1073741824,"fsize":0,"nofile":0},"allow_objects":true,"degrade_after":2,"degrade_limit":0.1,"reduced":"reduced limit","not_run":"not run: timed out on earlier calls"}`},
		{"request with a reduced limit", newRunRequest(&withLimit, tests, st.timeouts, nil, Limits{}),
			`{"op":"run","tests":[{"code":"assert f() is None"},{"code":"assert f() == 1","input":"f()","expected":"1"},{"code":"x"}],"timeouts":[1,1.5,3],"programs":null,"limits":{"memory":0,"fsize":0,"nofile":0},"allow_objects":true,"degrade_after":2,"degrade_limit":0.25,"reduced":"reduced limit","not_run":"not run: timed out on earlier calls"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := json.Marshal(c.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("encoded as\n%s\nwant\n%s", got, c.want)
			}
		})
	}
	if want := "099b5b456024a188085fdd103fb9a14f8738784969f1cf4bd844555fddcc771f"; b.ID != want {
		t.Errorf("batch ID %s, want %s", b.ID, want)
	}
}
