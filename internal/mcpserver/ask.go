package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/clip"
)

// Limits on what the human sends back through elicitation.
const (
	// maxValue bounds an "it should return …" value.
	maxValue = 4 << 10
	// maxChoice bounds a candidate value offered as a choice.
	maxChoice = 120
	// maxChoices bounds the candidate values offered.
	maxChoices = 8
	// maxTries is how often one question is asked again after an answer
	// that cannot be used.
	maxTries = 3
	// maxAsked bounds the questions of one clarify call.
	maxAsked = 100
)

// MetaQuestion is the _meta key of an elicitation that carries the question
// (an api.Question).
const MetaQuestion = "ticoder/question"

// Labels of the fixed answers offered through elicitation.
const (
	labelYes     = "yes"
	labelNo      = "no"
	labelInvalid = "invalid input / don't know"
	labelOther   = "it should return … (type the value below)"
)

// choice is one answer offered to the human: its label, and the verdict and
// value it gives (typed says the value comes from the value field).
type choice struct {
	label, verdict, value string
	typed                 bool
}

// choicesFor lists the answers q takes: yes, no, invalid input and, when
// the question takes an output, each value a candidate returns and a value
// of the human's own.
func choicesFor(q api.Question) []choice {
	cs := []choice{{label: labelYes, verdict: "pass"}, {label: labelNo, verdict: "fail"}, {label: labelInvalid, verdict: "undefined"}}
	if !q.CanOutput {
		return cs
	}
	seen := map[string]bool{}
	for _, v := range q.Choices {
		if v == q.Expected || seen[v] || len(v) > maxChoice || strings.ContainsAny(v, "\n\r") || len(seen) == maxChoices {
			continue
		}
		seen[v] = true
		cs = append(cs, choice{label: "it should return " + v, verdict: "output", value: v})
	}
	return append(cs, choice{label: labelOther, verdict: "output", typed: true})
}

// elicitParams asks q through the client; note, if not empty, says why the
// question is asked again.
func elicitParams(task api.Task, q api.Question, cs []choice, note string) *mcp.ElicitParams {
	var b strings.Builder
	if note != "" {
		fmt.Fprintf(&b, "%s\n\n", note)
	}
	fmt.Fprintf(&b, "ticoder, question %d about %s: should the function behave like this?\n\n%s\n\n", q.Number, task.EntryPoint, q.Prompt)
	if q.CanOutput {
		b.WriteString("Answer yes, no, invalid input / don't know, or say what it should return")
	} else {
		b.WriteString("Answer yes, no, or invalid input / don't know")
	}
	b.WriteString(". Decline to stop the questions and take the best code so far.")
	labels := make([]any, len(cs))
	for i, c := range cs {
		labels[i] = c.label
	}
	schema := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"answer": {Type: "string", Title: "Answer", Description: "Does " + clip.Text(q.Prompt, 200) + " hold?", Enum: labels},
		},
		Required: []string{"answer"},
	}
	if q.CanOutput {
		schema.Properties["value"] = &jsonschema.Schema{Type: "string", Title: "It should return", Description: "Only with \"" + labelOther + "\": the value, as a Python literal such as 3, 'abc' or [1, 2]", MaxLength: ptr(maxValue)}
	}
	// The question itself rides along in _meta for clients that show it
	// their own way.
	return &mcp.ElicitParams{Mode: "form", Message: b.String(), RequestedSchema: schema, Meta: mcp.Meta{MetaQuestion: q}}
}

func ptr[T any](v T) *T { return &v }

// errUnusable is an elicited answer that names no offered choice.
var errUnusable = errors.New("that answer cannot be used")

// pick returns the verdict and value of an accepted elicitation. The
// answer must be one of the labels offered; the value is only data, checked
// later as a Python literal.
func pick(content map[string]any, cs []choice) (verdict, value string, err error) {
	label, _ := content["answer"].(string)
	i := slices.IndexFunc(cs, func(c choice) bool { return c.label == label })
	if i < 0 {
		return "", "", fmt.Errorf("%w: choose one of the answers offered", errUnusable)
	}
	c := cs[i]
	if !c.typed {
		return c.verdict, c.value, nil
	}
	v, _ := content["value"].(string)
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return "", "", fmt.Errorf("%w: type the value the call should return in the value field", errUnusable)
	case len(v) > maxValue:
		return "", "", fmt.Errorf("%w: the value has %d characters; the limit is %d", errUnusable, len(v), maxValue)
	}
	return c.verdict, v, nil
}

// askAll asks the human every question of cv through elicitation until the
// questions end, the human declines (which stops them), or ctx ends.
func (s *Server) askAll(ctx context.Context, ss *mcp.ServerSession, cv *convo, n *notifier) error {
	note, tries := "", 0
	for asked := 0; asked < maxAsked; asked++ {
		q, ok := cv.conv.Question()
		if !ok {
			return nil
		}
		cs := choicesFor(q)
		res, err := ss.Elicit(ctx, elicitParams(cv.conv.Task(), q, cs, note))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("ask the human question %d through the client: %w", q.Number, err)
		}
		if res.Action != "accept" {
			s.log.Debug("the human stopped the questions", "session", cv.id, "action", res.Action)
			cv.conv.Stop()
			return nil
		}
		verdict, value, err := pick(res.Content, cs)
		if err == nil {
			err = cv.conv.Answer(ctx, q.Test, verdict, value)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if tries++; tries >= maxTries {
				return fmt.Errorf("question %d: %d answers could not be used, the last: %w", q.Number, tries, err)
			}
			note = "Not accepted: " + clip.Text(err.Error(), 300)
			continue
		}
		// The next question says when no candidate agrees with all the
		// answers, and what the model was asked.
		note, tries = cv.conv.State(cv.id).ConflictMessage, 0
		n.Note(fmt.Sprintf("question %d answered", q.Number))
	}
	cv.conv.Stop()
	return nil
}
