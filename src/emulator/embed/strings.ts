/**
 * The words of the emulator's embed pages, per locale. Shared by the server (error pages are
 * rendered before any script runs) and the page script.
 *
 * The emulator translates into `en-US` and `de-DE`; every other shipped locale (behaviour
 * 2, `SUPPORTED_LOCALES`) keeps English words but formats numbers and dates in its own locale.
 * Which locale a request gets is decided by `resolveLocale` of the protocol, never here.
 *
 * @module
 */
import type { SupportedLocale } from '../../core/protocol/embed';

/** Every text of the pages. `{name}` marks a value filled in by {@link format}. */
export interface EmbedStrings {
  loading: string;
  /** Heading of the error panel. */
  errorTitle: string;
  missingSession: string;
  unknownSession: string;
  expiredSession: string;
  usedSession: string;
  /** `set-session` with a session of another viewer or embed tenant than the page's. */
  otherViewer: string;
  revokedSession: string;
  wrongDeployment: string;
  dashboardNotFound: string;
  dashboardNotEmbeddable: string;
  deploymentNotFound: string;
  noParentOrigin: string;
  failedToLoad: string;
  unknownPath: string;
  lastRefreshed: string;
  neverRefreshed: string;
  refresh: string;
  timeZone: string;
  exportMenu: string;
  exportDashboardCsv: string;
  downloadCsv: string;
  details: string;
  backToDashboard: string;
  all: string;
  filterLabel: string;
  noData: string;
  appHome: string;
  appTitle: string;
  workbooks: string;
  rootFolder: string;
  noDashboard: string;
  askAi: string;
  chatTitle: string;
  newChat: string;
  chatHistory: string;
  noChats: string;
  questionLabel: string;
  questionPlaceholder: string;
  send: string;
  thinking: string;
  chatUnavailable: string;
  chatFailed: string;
  closeChat: string;
  openChat: string;
  greeting: string;
  appDashboardNotice: string;
  unsupportedWidget: string;
  rows: string;
}

const EN_US: EmbedStrings = {
  loading: 'Loading…',
  errorTitle: 'This content cannot be shown',
  missingSession: 'No session was given. Embed URLs need a fresh session id in "session" or "sessionId".',
  unknownSession: 'This session is not valid.',
  expiredSession: 'This session has expired. Sessions must be used within 5 minutes of being created.',
  usedSession: 'This session has already been used. Every page load needs a new session.',
  otherViewer: 'This session is for another viewer or embed tenant than the page shows.',
  revokedSession: 'This session has been revoked.',
  wrongDeployment: 'This session does not grant access to deployment {deploymentId}.',
  dashboardNotFound: 'Dashboard "{publicId}" was not found.',
  dashboardNotEmbeddable: 'Dashboard "{publicId}" is not enabled for embedding.',
  deploymentNotFound: 'Deployment {deploymentId} was not found.',
  noParentOrigin: 'The embedding page could not be identified, so no events are sent to it.',
  failedToLoad: 'Failed to load data',
  unknownPath: 'There is no page at "{path}".',
  lastRefreshed: 'Last refreshed {time}',
  neverRefreshed: 'Not refreshed yet',
  refresh: 'Refresh',
  timeZone: 'Time zone: {timezone}',
  exportMenu: 'Export',
  exportDashboardCsv: 'Download all data (CSV)',
  downloadCsv: 'Download CSV',
  details: 'Details',
  backToDashboard: 'Back to dashboard',
  all: 'All',
  filterLabel: '{title}',
  noData: 'No data',
  appHome: 'Home',
  appTitle: 'Analytics',
  workbooks: 'Workbooks',
  rootFolder: 'Unfiled',
  noDashboard: 'This workbook has no published dashboard yet.',
  askAi: 'Ask AI',
  chatTitle: 'AI analyst',
  newChat: 'New chat',
  chatHistory: 'Chat history',
  noChats: 'No chats yet',
  questionLabel: 'Your question',
  questionPlaceholder: 'Ask about your data…',
  send: 'Send',
  thinking: 'Thinking…',
  chatUnavailable: 'No AI agent is available for this deployment.',
  chatFailed: 'The AI agent could not answer: {message}',
  closeChat: 'Close chat',
  openChat: 'Open AI chat',
  greeting: 'Signed in as {name}',
  appDashboardNotice: 'This dashboard is an app of authored files, which the emulator does not run.',
  unsupportedWidget: 'This widget type is not shown in the emulator.',
  rows: '{count} rows',
};

const DE_DE: EmbedStrings = {
  loading: 'Wird geladen…',
  errorTitle: 'Dieser Inhalt kann nicht angezeigt werden',
  missingSession:
    'Es wurde keine Sitzung angegeben. Einbettungs-URLs brauchen eine neue Sitzungs-ID in "session" oder "sessionId".',
  unknownSession: 'Diese Sitzung ist ungültig.',
  expiredSession: 'Diese Sitzung ist abgelaufen. Sitzungen müssen innerhalb von 5 Minuten verwendet werden.',
  usedSession: 'Diese Sitzung wurde bereits verwendet. Jeder Seitenaufruf braucht eine neue Sitzung.',
  otherViewer: 'Diese Sitzung gehört zu einer anderen Person oder einem anderen Embed-Mandanten als die Seite.',
  revokedSession: 'Diese Sitzung wurde widerrufen.',
  wrongDeployment: 'Diese Sitzung gewährt keinen Zugriff auf Deployment {deploymentId}.',
  dashboardNotFound: 'Dashboard "{publicId}" wurde nicht gefunden.',
  dashboardNotEmbeddable: 'Dashboard "{publicId}" ist nicht für die Einbettung freigegeben.',
  deploymentNotFound: 'Deployment {deploymentId} wurde nicht gefunden.',
  noParentOrigin: 'Die einbettende Seite konnte nicht ermittelt werden; es werden keine Ereignisse an sie gesendet.',
  failedToLoad: 'Daten konnten nicht geladen werden',
  unknownPath: 'Unter "{path}" gibt es keine Seite.',
  lastRefreshed: 'Zuletzt aktualisiert {time}',
  neverRefreshed: 'Noch nicht aktualisiert',
  refresh: 'Aktualisieren',
  timeZone: 'Zeitzone: {timezone}',
  exportMenu: 'Exportieren',
  exportDashboardCsv: 'Alle Daten herunterladen (CSV)',
  downloadCsv: 'CSV herunterladen',
  details: 'Details',
  backToDashboard: 'Zurück zum Dashboard',
  all: 'Alle',
  filterLabel: '{title}',
  noData: 'Keine Daten',
  appHome: 'Startseite',
  appTitle: 'Analysen',
  workbooks: 'Arbeitsmappen',
  rootFolder: 'Ohne Ordner',
  noDashboard: 'Diese Arbeitsmappe hat noch kein veröffentlichtes Dashboard.',
  askAi: 'KI fragen',
  chatTitle: 'KI-Analyst',
  newChat: 'Neuer Chat',
  chatHistory: 'Chatverlauf',
  noChats: 'Noch keine Chats',
  questionLabel: 'Ihre Frage',
  questionPlaceholder: 'Fragen Sie etwas zu Ihren Daten…',
  send: 'Senden',
  thinking: 'Denkt nach…',
  chatUnavailable: 'Für dieses Deployment ist kein KI-Agent verfügbar.',
  chatFailed: 'Der KI-Agent konnte nicht antworten: {message}',
  closeChat: 'Chat schließen',
  openChat: 'KI-Chat öffnen',
  greeting: 'Angemeldet als {name}',
  appDashboardNotice: 'Dieses Dashboard ist eine App aus eigenen Dateien, die der Emulator nicht ausführt.',
  unsupportedWidget: 'Dieser Widget-Typ wird im Emulator nicht angezeigt.',
  rows: '{count} Zeilen',
};

/** Locales with their own words; the others use `en-US` words. */
const TRANSLATIONS: Partial<Record<SupportedLocale, EmbedStrings>> = { 'en-US': EN_US, 'de-DE': DE_DE };

/** The words for a resolved locale (English for locales the emulator has not translated). */
export function stringsFor(locale: SupportedLocale): EmbedStrings {
  return TRANSLATIONS[locale] ?? EN_US;
}

/** Fills `{name}` placeholders of `template` from `values`; unknown placeholders stay as written. */
export function format(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
