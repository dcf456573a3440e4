package scenarios

import (
	"strings"
	"testing"
)

// Every problem of a Job's policies is reported at its line and column, a
// misspelt value with a suggestion.
func TestJobPolicyErrorsHavePositions(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  workloads:
    - apiVersion: batch/v1
      kind: Job
      metadata: {name: a}
      spec:
        completionMode: Indexd
        backoffLimitPerIndex: 1
        maxFailedIndexes: 1
        podReplacementPolicy: TerminatingOrFailed
        podFailurePolicy:
          rules:
            - {action: FailJb, onExitCodes: {operator: In, values: [0, 3]}}
            - {action: FailIndex, onExitCodes: {containerName: mian, operator: NotIn, values: [5, 2]}}
            - {action: Ignore, onPodConditions: [{type: DisruptionTarget, status: Ture}]}
            - {action: Count}
        successPolicy: {rules: [{succeededCount: 1}]}
        template: {spec: {restartPolicy: OnFailure, containers: [{name: main, image: x}]}}
    - apiVersion: batch/v1
      kind: Job
      metadata: {name: b}
      spec:
        completionMode: Indexed
        completions: 3
        backoffLimitPerIndex: 0
        maxFailedIndexes: 4
        podReplacementPolicy: Faild
        successPolicy: {rules: [{succeededIndexes: "0,5"}, {succeededIndexes: "2-1"}, {succeededIndexes: "0-1", succeededCount: 3}, {}]}
        template: {spec: {restartPolicy: Never, containers: [{name: main, image: x}]}}
    - apiVersion: apps/v1
      kind: Deployment
      metadata: {name: c}
      spec:
        completionMode: Indexed
        template: {spec: {containers: [{name: main, image: x}]}}
`
	_, err := Parse("s.yaml", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`s.yaml:10:25: completionMode "Indexd": want NonIndexed or Indexed; did you mean "Indexed"?`,
		`s.yaml:11:31: backoffLimitPerIndex needs completionMode Indexed`,
		`s.yaml:13:31: podReplacementPolicy must be Failed with a podFailurePolicy`,
		`s.yaml:15:11: a podFailurePolicy needs the pod template's restartPolicy Never (it is "OnFailure")`,
		`s.yaml:16:24: action "FailJb": want FailJob, FailIndex, Ignore or Count; did you mean "FailJob"?`,
		`s.yaml:16:69: operator In cannot match exit code 0: a container that exits 0 did not fail`,
		`s.yaml:17:64: containerName "mian" is no container of the pod; did you mean "main"?`,
		`s.yaml:17:99: values must be distinct and in increasing order`,
		`s.yaml:18:83: status "Ture": want True, False or Unknown; did you mean "True"?`,
		`s.yaml:19:15: a rule needs onExitCodes or onPodConditions`,
		`s.yaml:20:24: successPolicy needs completionMode Indexed`,
		`s.yaml:29:27: maxFailedIndexes (4) must be at most completions (3)`,
		`s.yaml:30:31: podReplacementPolicy "Faild": want TerminatingOrFailed or Failed; did you mean "Failed"?`,
		`s.yaml:31:52: succeededIndexes "0,5": indexes go from 0 to completions-1 (2)`,
		`s.yaml:31:79: succeededIndexes "2-1": want indexes in increasing order, as 0,2-4`,
		`s.yaml:31:129: succeededCount (3) must be at most the number of succeededIndexes (2)`,
		`s.yaml:31:133: a rule needs succeededIndexes or succeededCount`,
		`s.yaml:37:9: only a Job has completionMode, backoffLimitPerIndex, maxFailedIndexes, podFailurePolicy, podReplacementPolicy and successPolicy`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%s", want, err)
		}
	}
}
