package ui

import (
	"context"
	"fmt"
	"io"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/interact"
)

// TUIOptions configure RunTUI.
type TUIOptions struct {
	// In and Out are the terminal; nil means the process's stdin and stdout.
	In  io.Reader
	Out io.Writer
	// Width and Height set the initial size (tests); 0 asks the terminal.
	Width, Height int
	// NoColor turns syntax highlighting off.
	NoColor bool
	// Changed, if not nil, is called after each change to the conversation
	// (an answer, an undo), when no change is running: the caller can save
	// the conversation so that the answers survive.
	Changed func(*interact.Conversation)
}

// RunTUI runs the full-screen terminal UI until the user chooses a
// candidate or quits.
func RunTUI(ctx context.Context, c *interact.Conversation, o TUIOptions) (Result, error) {
	m := newModel(ctx, c, !o.NoColor)
	m.changed = o.Changed
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if o.In != nil {
		opts = append(opts, tea.WithInput(o.In))
	}
	if o.Out != nil {
		opts = append(opts, tea.WithOutput(o.Out))
	}
	if o.Width > 0 && o.Height > 0 {
		opts = append(opts, tea.WithWindowSize(o.Width, o.Height))
	}
	final, err := tea.NewProgram(m, opts...).Run()
	if err != nil {
		return Result{Aborted: true}, fmt.Errorf("terminal UI: %w", err)
	}
	return final.(*model).result, nil
}

// phase is what the UI is doing.
type phase int

const (
	asking   phase = iota // waiting for an answer key
	typing                // typing the right output value
	choosing              // the questions are over: choose a candidate
)

// model is the bubbletea model. The conversation is touched only by the
// commands it starts, one at a time (busy), never by View.
type model struct {
	ctx    context.Context
	conv   *interact.Conversation
	colour bool

	state  api.Session
	phase  phase
	busy   bool
	queued []tea.KeyPressMsg // keys pressed while busy, replayed after
	input  textinput.Model
	err    string
	note   string
	cursor int
	width  int
	height int
	scroll int // first line of the final view's candidate and diff pane
	// maxScroll is the last useful scroll, set by View.
	maxScroll int
	result    Result
	stopped   bool // the program is quitting
	// confirmQuit is set after a first esc or q on the final view: a second
	// one quits without writing, any other key stays.
	confirmQuit bool
	changed     func(*interact.Conversation)
}

func newModel(ctx context.Context, c *interact.Conversation, colour bool) *model {
	m := modelOf(c.State(""), colour)
	m.ctx, m.conv = ctx, c
	return m
}

// modelOf returns a model showing state, with no conversation behind it.
func modelOf(state api.Session, colour bool) *model {
	in := textinput.New()
	in.Placeholder = "a Python value, e.g. False or [1, 2]"
	if state.Task.Language == "java" {
		in.Placeholder = "a Java value, e.g. 3 or new int[] {1, 2}"
	}
	in.Prompt = "value> "
	m := &model{colour: colour, input: in, width: 100, height: 40, state: state}
	if m.state.Done {
		m.phase = choosing
	}
	return m
}

// doneMsg carries the state after a change to the conversation.
type doneMsg struct {
	state api.Session
	note  string
	err   error
}

// change runs f on the conversation in the background and reports the new
// state.
func (m *model) change(note string, f func() error) tea.Cmd {
	m.busy = true
	m.err = ""
	conv := m.conv
	return func() tea.Msg {
		err := f()
		return doneMsg{state: conv.State(""), note: note, err: err}
	}
}

// Init starts nothing: the first question is already in the state.
func (m *model) Init() tea.Cmd { return nil }

// Update handles keys, window sizes and finished changes.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		// The value, its prompt and its keys share a line (askLines).
		m.input.SetWidth(max(20, msg.Width-36))
		return m, nil
	case doneMsg:
		m.busy = false
		m.state = msg.state
		if m.changed != nil {
			m.changed(m.conv)
		}
		if msg.err != nil {
			m.err = message(msg.err)
		} else {
			m.note = msg.note
			if m.phase == typing {
				m.phase = asking
				m.input.Blur()
				m.input.Reset()
			}
		}
		if m.state.Done {
			m.phase = choosing
			m.cursor, m.scroll = 0, 0
		} else if m.phase == choosing {
			m.phase = asking
		}
		return m, m.replay()
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			m.result = Result{Aborted: true, Interrupted: true}
			m.stopped = true
			return m, tea.Quit
		}
		if m.busy {
			m.queued = append(m.queued, msg)
			return m, nil
		}
		return m, m.key(msg)
	}
	if m.phase == typing {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	return m, nil
}

// replay handles the keys typed while a change was running.
func (m *model) replay() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.queued) > 0 && !m.busy && !m.stopped {
		k := m.queued[0]
		m.queued = m.queued[1:]
		cmds = append(cmds, m.key(k))
	}
	return tea.Batch(cmds...)
}

// key handles one key press.
func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	switch m.phase {
	case typing:
		switch k.String() {
		case "enter":
			value := m.input.Value()
			test := m.state.Question.Test
			return m.change("", func() error { return m.conv.Answer(m.ctx, test, "output", value) })
		case "esc":
			m.phase = asking
			m.input.Blur()
			return nil
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(k)
		return cmd
	case choosing:
		return m.chooseKey(k)
	}
	q := m.state.Question
	switch k.String() {
	case "y":
		return m.change("", func() error { return m.conv.Answer(m.ctx, q.Test, "pass", "") })
	case "n":
		return m.change("", func() error { return m.conv.Answer(m.ctx, q.Test, "fail", "") })
	case "d":
		return m.change("", func() error { return m.conv.Answer(m.ctx, q.Test, "undefined", "") })
	case "o":
		if !q.CanOutput {
			m.err = "giving the right output needs --mode output and a test of the form CALL == VALUE; answer y, n or d"
			return nil
		}
		m.phase = typing
		m.err = ""
		return m.input.Focus()
	case "u":
		return m.change("Undone.", m.conv.Undo)
	case "q":
		return m.change("", func() error { m.conv.Stop(); return nil })
	}
	m.err = fmt.Sprintf("unknown key %q: y yes · n no · d don't know · o right output · u undo · q stop", k.String())
	return nil
}

// choose moves the cursor to candidate i; another candidate's code is shown
// from its first line.
func (m *model) choose(i int) {
	if i != m.cursor {
		m.cursor = i
		m.scroll = 0
	}
}

// chooseKey handles a key in the final view.
func (m *model) chooseKey(k tea.KeyPressMsg) tea.Cmd {
	n := len(m.state.Candidates)
	confirm := m.confirmQuit
	if m.confirmQuit {
		m.confirmQuit = false
		m.err = ""
	}
	switch k.String() {
	case "up", "k":
		m.choose(max(0, m.cursor-1))
	case "down", "j":
		m.choose(min(max(0, n-1), m.cursor+1))
	case "pgdown", "space", "f":
		m.scroll = min(m.maxScroll, m.scroll+max(1, m.height/2))
	case "pgup", "b":
		m.scroll = max(0, m.scroll-max(1, m.height/2))
	case "u":
		return m.change("Undone.", m.conv.Undo)
	case "enter", "w":
		if n == 0 {
			m.err = "no candidate remains: press u to undo the last answer, or esc to quit"
			return nil
		}
		m.result = Result{Candidate: m.state.Candidates[m.cursor].Index}
		m.stopped = true
		return tea.Quit
	case "esc", "q":
		if a := len(m.state.History); a > 0 && !confirm {
			m.confirmQuit = true
			m.err = fmt.Sprintf("Quit without writing the code? Your %s will be kept in a session file you can resume. "+
				"Press %s again to quit, any other key to stay.", plural(a, "answer"), k.String())
			return nil
		}
		m.result = Result{Candidate: -1, Aborted: true}
		m.stopped = true
		return tea.Quit
	}
	return nil
}
