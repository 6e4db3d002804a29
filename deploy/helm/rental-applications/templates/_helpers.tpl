{{/*
Names, labels and each app's facts (ports, queues, environment, secret settings): the one place
the templates ask. The apps' facts come from their code: the ports are their defaults
(each app's config/<app>.environment.ts), the queues those each consumes.
*/}}

{{- define "rental-applications.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "rental-applications.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The name of one app's objects: <fullname>-<app>. Takes (dict "root" $ "app" <app>). */}}
{{- define "rental-applications.appName" -}}
{{- printf "%s-%s" (include "rental-applications.fullname" .root | trunc 50 | trimSuffix "-") .app }}
{{- end }}

{{- define "rental-applications.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "rental-applications.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: rental-applications
{{- end }}

{{/* What selects one app's pods. Takes (dict "root" $ "app" <app>). */}}
{{- define "rental-applications.selectorLabels" -}}
app.kubernetes.io/name: {{ include "rental-applications.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .app }}
{{- end }}

{{/* Every label of one app's objects. Takes (dict "root" $ "app" <app>). */}}
{{- define "rental-applications.appLabels" -}}
{{ include "rental-applications.labels" .root }}
app.kubernetes.io/component: {{ .app }}
{{- end }}

{{/* The apps that serve HTTP behind a Service; the others consume queues. */}}
{{- define "rental-applications.httpApps" -}}
{{- list "gateway" "form" | toJson }}
{{- end }}

{{- define "rental-applications.isHttpApp" -}}
{{- if has .app (include "rental-applications.httpApps" . | fromJsonArray) }}true{{ end }}
{{- end }}

{{/*
Each app's ports: "http" is what the Service sends to (PORT, FORM_PORT), "operations" its
health and metrics listener (HTTP_PORT).
*/}}
{{- define "rental-applications.ports" -}}
gateway: { http: 3000, operations: 3010 }
form: { http: 3003, operations: 3004 }
properties: { operations: 3001 }
applications: { operations: 3002 }
webhooks: { operations: 3005 }
notifications: { operations: 3006 }
{{- end }}

{{/* One app's ports. Takes (dict "root" $ "app" <app>). */}}
{{- define "rental-applications.appPorts" -}}
{{- get (include "rental-applications.ports" . | fromYaml) .app | toJson }}
{{- end }}

{{/*
The queues each consumer takes work from, without the queue prefix: its request queue first,
whose callers wait for the answer, then its work queues.
*/}}
{{- define "rental-applications.queues" -}}
properties: [properties]
applications: [applications]
webhooks: [webhooks, webhooks.events, webhooks.deliveries]
notifications: [notifications, notifications.events, notifications.decisions, notifications.invitations, notifications.outgoing, notifications.reminders]
{{- end }}

{{/* The name of the Secret holding every secret setting: the operator's, or the chart's own. */}}
{{- define "rental-applications.secretName" -}}
{{- .Values.secrets.existingSecret | default (include "rental-applications.fullname" .) }}
{{- end }}

{{/*
An app's broker user as a sender in TRUSTED_SENDERS: its role, and ":user" when its user has
another name. Takes (dict "root" $ "app" <app>).
*/}}
{{- define "rental-applications.sender" -}}
{{- $user := get .root.Values.broker.users .app }}
{{- if eq $user.username .app }}{{ .app }}{{ else }}{{ printf "%s:%s" .app $user.username }}{{ end }}
{{- end }}

{{/*
The settings of one app the chart gives in clear, as a map of variable to value (the chart's
values; the app's own `env` is added after). Takes (dict "root" $ "app" <app>).
*/}}
{{- define "rental-applications.plainEnv" -}}
{{- $v := .root.Values }}
{{- $ports := include "rental-applications.appPorts" . | fromJson }}
{{- $sender := dict }}
{{- range $role := list "gateway" "form" "applications" "notifications" }}
{{- $_ := set $sender $role (include "rental-applications.sender" (dict "root" $.root "app" $role)) }}
{{- end }}
{{- $env := dict "NAMESPACE" $v.queuePrefix "PUBLIC_BASE_URL" $v.publicBaseUrl "LOG_LEVEL" $v.logLevel "HTTP_PORT" (toString $ports.operations) }}
{{- $eventPublishers := printf "%s,%s" $v.broker.users.properties.username $v.broker.users.applications.username }}
{{- if eq .app "gateway" }}
{{- $_ := set $env "PORT" (toString $ports.http) }}
{{- else if eq .app "form" }}
{{- $_ := set $env "FORM_PORT" (toString $ports.http) }}
{{- $_ := set $env "APPLY_BASE_URL" $v.applyBaseUrl }}
{{- $_ := set $env "APPLY_FRAME_ANCESTORS" $v.form.frameAncestors }}
{{- $_ := set $env "FORM_SEALING_PUBLIC_KEY" $v.form.sealingPublicKey }}
{{- else if eq .app "properties" }}
{{- $_ := set $env "APPLY_BASE_URL" $v.applyBaseUrl }}
{{- $_ := set $env "TRUSTED_SENDERS" (list $sender.gateway $sender.applications $sender.form | join ",") }}
{{- else if eq .app "applications" }}
{{- $_ := set $env "APPLY_BASE_URL" $v.applyBaseUrl }}
{{- $_ := set $env "TRUSTED_SENDERS" (list $sender.gateway $sender.form $sender.notifications | join ",") }}
{{- else if eq .app "webhooks" }}
{{- $_ := set $env "TRUSTED_SENDERS" $sender.gateway }}
{{- $_ := set $env "EVENT_PUBLISHERS" $eventPublishers }}
{{- else if eq .app "notifications" }}
{{- $_ := set $env "APPLY_BASE_URL" $v.applyBaseUrl }}
{{- $_ := set $env "TRUSTED_SENDERS" (list $sender.gateway $sender.form | join ",") }}
{{- $_ := set $env "EVENT_PUBLISHERS" $eventPublishers }}
{{- $_ := set $env "MAIL_FROM" $v.smtp.mailFrom }}
{{- end }}
{{- with $v.observability.otel }}
{{- if .endpoint }}
{{- $_ := set $env "OTEL_SERVICE_NAME" $.app }}
{{- $_ := set $env "OTEL_EXPORTER_OTLP_ENDPOINT" .endpoint }}
{{- $_ := set $env "OTEL_EXPORTER_OTLP_PROTOCOL" .protocol }}
{{- $_ := set $env "OTEL_TRACES_SAMPLER" .sampler }}
{{- $_ := set $env "OTEL_TRACES_SAMPLER_ARG" .samplerArg }}
{{- end }}
{{- end }}
{{- $env | toYaml }}
{{- end }}

{{/*
The settings of one app that come from the Secret, as a map of variable to the Secret's key. The
form gets no key that opens anything stored: no FIELD_ENCRYPTION_KEYS, FORM_SEALING_KEYS or
FINGERPRINT_KEYS. REDIS_URL and API_KEY_SCOPES are optional: with the chart's own Secret they are
there when set, in the operator's they may be missing. Takes (dict "root" $ "app" <app>).
*/}}
{{- define "rental-applications.secretEnv" -}}
{{- $v := .root.Values }}
{{- $env := dict "AMQP_URL" (printf "%s-amqp-url" .app) "MONGODB_URI" (printf "%s-mongodb-uri" .app) }}
{{- if eq .app "gateway" }}
{{- $_ := set $env "API_KEYS" "api-keys" }}
{{- $_ := set $env "FIELD_ENCRYPTION_KEYS" "field-encryption-keys" }}
{{- if or $v.secrets.existingSecret $v.secrets.apiKeyScopes }}
{{- $_ := set $env "API_KEY_SCOPES" "api-key-scopes" }}
{{- end }}
{{- else if eq .app "form" }}
{{- $_ := set $env "CSRF_KEYS" "csrf-keys" }}
{{- $_ := set $env "FORM_LINK_KEYS" "form-link-keys" }}
{{- else }}
{{- $_ := set $env "FINGERPRINT_KEYS" "fingerprint-keys" }}
{{- end }}
{{- if eq .app "applications" }}
{{- $_ := set $env "FIELD_ENCRYPTION_KEYS" "field-encryption-keys" }}
{{- $_ := set $env "FORM_LINK_KEYS" "form-link-keys" }}
{{- $_ := set $env "FORM_SEALING_KEYS" "form-sealing-keys" }}
{{- else if eq .app "webhooks" }}
{{- $_ := set $env "FIELD_ENCRYPTION_KEYS" "field-encryption-keys" }}
{{- else if eq .app "notifications" }}
{{- $_ := set $env "SMTP_URL" "smtp-url" }}
{{- end }}
{{- if and (has .app (list "gateway" "form")) (or $v.secrets.existingSecret $v.redis.url) }}
{{- $_ := set $env "REDIS_URL" "redis-url" }}
{{- end }}
{{- $env | toYaml }}
{{- end }}

{{/* The Secret's keys that an operator's Secret may leave out. */}}
{{- define "rental-applications.optionalSecretKeys" -}}
{{- list "redis-url" "api-key-scopes" | toJson }}
{{- end }}

{{/* An AMQP URL with a user's credentials. Takes (dict "root" $ "user" <{username, password}>). */}}
{{- define "rental-applications.amqpUrl" -}}
{{- $broker := urlParse .root.Values.broker.url }}
{{- $vhost := ternary "" (printf "/%s" (urlquery .root.Values.broker.vhost)) (eq .root.Values.broker.vhost "/") }}
{{- printf "%s://%s:%s@%s%s" $broker.scheme .user.username .user.password $broker.host $vhost }}
{{- end }}

{{/*
A MongoDB URI with a user's credentials and the database holding the users (authSource, unless
database.url names one), the user's name after queuePrefix: releases with different prefixes on
one server have users of their own (files/mongodb/users.js refuses a name without it).
Takes (dict "root" $ "user" <{username, password}>).
*/}}
{{- define "rental-applications.mongodbUri" -}}
{{- $database := .root.Values.database }}
{{- $parts := splitn "://" 2 $database.url }}
{{- $address := splitn "?" 2 $parts._1 }}
{{- $query := $address._1 | default "" }}
{{- if not (contains "authSource=" $query) }}
{{- $query = trimPrefix "&" (printf "%s&authSource=%s" $query $database.authSource) }}
{{- end }}
{{- printf "%s://%s%s:%s@%s/?%s" $parts._0 .root.Values.queuePrefix .user.username .user.password (trimSuffix "/" $address._0) $query }}
{{- end }}

{{/* What the chart's own Secret holds, as a map of key to value. */}}
{{- define "rental-applications.secretData" -}}
{{- $v := .Values }}
{{- $data := dict "smtp-url" $v.smtp.url "api-keys" $v.secrets.apiKeys }}
{{- range $app, $user := $v.broker.users }}
{{- $_ := set $data (printf "%s-amqp-url" $app) (include "rental-applications.amqpUrl" (dict "root" $ "user" $user)) }}
{{- end }}
{{- range $app, $user := $v.database.users }}
{{- $_ := set $data (printf "%s-mongodb-uri" $app) (include "rental-applications.mongodbUri" (dict "root" $ "user" $user)) }}
{{- end }}
{{- $_ := set $data "field-encryption-keys" $v.secrets.fieldEncryptionKeys }}
{{- $_ := set $data "fingerprint-keys" $v.secrets.fingerprintKeys }}
{{- $_ := set $data "form-link-keys" $v.secrets.formLinkKeys }}
{{- $_ := set $data "form-sealing-keys" $v.secrets.formSealingKeys }}
{{- $_ := set $data "csrf-keys" $v.secrets.csrfKeys }}
{{- with $v.secrets.apiKeyScopes }}{{ $_ := set $data "api-key-scopes" . }}{{ end }}
{{- with $v.redis.url }}{{ $_ := set $data "redis-url" . }}{{ end }}
{{- if $v.keda.enabled }}
{{- $mgmt := urlParse $v.broker.managementUrl }}
{{- $_ := set $data "rabbitmq-management-url" (printf "%s://%s:%s@%s" $mgmt.scheme $v.broker.monitoringUser.username $v.broker.monitoringUser.password $mgmt.host) }}
{{- end }}
{{- $data | toYaml }}
{{- end }}

{{/*
A digest of what one app takes from the chart's Secret, so that its pods roll when that changes
(and only then). Empty with the operator's Secret, which the chart cannot read.
Takes (dict "root" $ "app" <app>).
*/}}
{{- define "rental-applications.secretChecksum" -}}
{{- if not .root.Values.secrets.existingSecret }}
{{- $data := include "rental-applications.secretData" .root | fromYaml }}
{{- $taken := dict }}
{{- range $variable, $key := include "rental-applications.secretEnv" . | fromYaml }}
{{- $_ := set $taken $key (get $data $key) }}
{{- end }}
{{- $taken | toJson | sha256sum }}
{{- end }}
{{- end }}

{{/*
The apps' own stop deadline, in seconds: on SIGTERM each exits within STOP_DEADLINE_MS (9.5 s,
libs/runtime/src/run-service.ts), rounded up. tools/chart-shutdown.spec.ts checks the two agree.
*/}}
{{- define "rental-applications.stopDeadlineSeconds" -}}
10
{{- end }}

{{/*
The order a rolling upgrade replaces the apps in, and a rollback undoes it backwards: UPGRADE_ORDER
of scripts/apps.js (README, "Upgrading"), which tools/chart-upgrade.spec.ts checks this against.
*/}}
{{- define "rental-applications.upgradeOrder" -}}
webhooks notifications properties applications form gateway
{{- end }}

{{/*
The tag of one app's image: its own (image.tags.<app>), else, during a rolling upgrade
(image.upgrade.from set), image.upgrade.from for the apps after image.upgrade.through in the
upgrade order, else image.tag, else the chart's appVersion. Takes (dict "root" $ "app" <app>).
*/}}
{{- define "rental-applications.imageTag" -}}
{{- $image := .root.Values.image }}
{{- $order := splitList " " (include "rental-applications.upgradeOrder" .) }}
{{- $through := $image.upgrade.through }}
{{- if and $through (not $image.upgrade.from) }}
{{- fail "image.upgrade.through needs image.upgrade.from: the tag of the release the apps after it still run" }}
{{- end }}
{{- /* How many apps, from the first in the order, are upgraded: those up to `through`. */}}
{{- $upgraded := 0 }}
{{- range $i, $app := $order }}{{ if eq $app $through }}{{ $upgraded = add1 $i }}{{ end }}{{ end }}
{{- $position := 0 }}
{{- range $i, $app := $order }}{{ if eq $app $.app }}{{ $position = $i }}{{ end }}{{ end }}
{{- $tag := $image.tag | default .root.Chart.AppVersion }}
{{- if and $image.upgrade.from (ge $position $upgraded) }}{{ $tag = $image.upgrade.from }}{{ end }}
{{- get $image.tags .app | default $tag }}
{{- end }}

{{/* The image of one app. Takes (dict "root" $ "app" <app>). */}}
{{- define "rental-applications.image" -}}
{{- printf "%s-%s:%s" .root.Values.image.repository .app (include "rental-applications.imageTag" .) }}
{{- end }}

{{/* Whether KEDA scales this app (a consumer, with keda.enabled). Takes (dict "root" $ "app" <app>). */}}
{{- define "rental-applications.kedaScaled" -}}
{{- if and .root.Values.keda.enabled (not (include "rental-applications.isHttpApp" .)) }}true{{ end }}
{{- end }}

{{/* Whether a CPU HorizontalPodAutoscaler scales this app. Takes (dict "root" $ "app" <app>). */}}
{{- define "rental-applications.hpaScaled" -}}
{{- $app := get .root.Values.apps .app }}
{{- if and $app.autoscaling.enabled (not (include "rental-applications.kedaScaled" .)) }}true{{ end }}
{{- end }}
