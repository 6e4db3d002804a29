package main

import (
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/yaml"
)

// Where each kind that runs pods keeps its pod template.
var templatePaths = map[string][]string{
	"Pod":         nil,
	"Deployment":  {"spec", "template"},
	"ReplicaSet":  {"spec", "template"},
	"StatefulSet": {"spec", "template"},
	"DaemonSet":   {"spec", "template"},
	"Job":         {"spec", "template"},
	"CronJob":     {"spec", "jobTemplate", "spec", "template"},
}

// podTemplate returns the pod template of an object that runs pods, strictly decoded.
func podTemplate(object *unstructured.Unstructured) (*corev1.PodTemplateSpec, bool, error) {
	path, ok := templatePaths[object.GetKind()]
	if !ok {
		return nil, false, nil
	}
	content := object.Object
	if path != nil {
		found, ok, err := unstructured.NestedMap(object.Object, path...)
		if err != nil || !ok {
			return nil, false, fmt.Errorf("no pod template at %v: %v", path, err)
		}
		content = found
	}
	var template corev1.PodTemplateSpec
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(content, &template, true); err != nil {
		return nil, false, err
	}
	return &template, true, nil
}

// restrictedProblems is what the restricted profile, at its latest version, forbids in template:
// what Pod Security admission would refuse (enforce) or warn of (warn, audit).
func restrictedProblems(template *corev1.PodTemplateSpec) []string {
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		panic(err)
	}
	level := api.LevelVersion{Level: api.LevelRestricted, Version: api.LatestVersion()}
	meta := metav1.ObjectMeta{Labels: template.Labels, Annotations: template.Annotations}
	result := policy.AggregateCheckResults(evaluator.EvaluatePod(level, &meta, &template.Spec))
	if result.Allowed {
		return nil
	}
	return []string{result.ForbiddenReason() + ": " + result.ForbiddenDetail()}
}

// printPods writes each object's pod template as a bare Pod named <owner>-pod, YAML documents.
func printPods(out io.Writer, objects []*unstructured.Unstructured) error {
	for _, object := range objects {
		template, ok, err := podTemplate(object)
		if err != nil {
			return fmt.Errorf("%s %s: %w", object.GetKind(), object.GetName(), err)
		}
		if !ok {
			continue
		}
		pod := corev1.Pod{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{
				Name:        object.GetName() + "-pod",
				Labels:      template.Labels,
				Annotations: template.Annotations,
			},
			Spec: template.Spec,
		}
		document, err := yaml.Marshal(pod)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "---\n%s", document)
	}
	return nil
}
