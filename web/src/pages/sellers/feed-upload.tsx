import { useState } from 'preact/hooks';
import { ApiError, upload, type UploadProgress } from '../../api';
import type { FeedSentAnswer } from '../../api-types';
import { codeLabel, useI18n } from '../../i18n';
import { FormError, formatBytes, messageFor, useSubmit } from '../../ui';
import { FEED_FILE_TYPES, feedHeaders, type Feed, type Seller } from './feed-files';

type Mode = 'delta' | 'full';
const MODES: Mode[] = ['delta', 'full'];

/** A radio or a checkbox with its label beside it and its explanation under it. */
function Choice({
  id,
  type,
  name,
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  type: 'radio' | 'checkbox';
  name: string;
  label: string;
  hint: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div class="choice">
      <input
        id={id}
        type={type}
        name={name}
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
      <small id={`${id}-hint`} class="hint">
        {hint}
      </small>
    </div>
  );
}

/**
 * The upload of a stock file for one seller: the file, full or partial, dry run, force; its
 * progress as the bytes go (XMLHttpRequest's upload events), then `onSent` with the feed the API
 * received, which the page follows until it is applied.
 */
export function FeedUpload({ seller, onSent }: { seller: Seller; onSent: (feed: Feed) => void }) {
  const { t, lang } = useI18n();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<Mode>('delta');
  const [dryRun, setDryRun] = useState(false);
  const [force, setForce] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const { refusal, busy, submit } = useSubmit(async () => {
    if (!file) throw new ApiError(0, 'FILE_REQUIRED', t('chooseFile'), 'file');
    setProgress({ loaded: 0, total: file.size });
    try {
      const { data } = await upload<FeedSentAnswer>('/stock/feeds', {
        file,
        headers: feedHeaders(file),
        query: {
          seller: seller.id,
          mode,
          dry_run: dryRun || undefined,
          force: (mode === 'full' && force) || undefined,
        },
        onProgress: setProgress,
      });
      onSent(data.feed);
    } catch (error) {
      setProgress(null); // refused (its message shown instead), or the connection was lost
      throw error;
    }
  });
  const fileError = messageFor(refusal, 'file');
  const sent = progress !== null && progress.loaded >= progress.total && !busy;
  const percent = progress && progress.total > 0 ? Math.floor((progress.loaded / progress.total) * 100) : 100;

  return (
    <form
      class="upload-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) void submit();
      }}
    >
      <div class="field">
        <label for="feed-file">{t('file')}</label>
        <input
          id="feed-file"
          name="file"
          type="file"
          accept={FEED_FILE_TYPES}
          aria-describedby={fileError ? 'feed-file-hint feed-file-error' : 'feed-file-hint'}
          aria-invalid={fileError ? 'true' : undefined}
          onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
        />
        <small id="feed-file-hint" class="hint">
          {t('fileHint')}
        </small>
        {fileError && (
          <p id="feed-file-error" class="error" role="alert" data-field="file">
            {fileError}
          </p>
        )}
      </div>
      <p>
        <a href="/stock/feeds/template.csv" download="modelo-feed-stock.csv">
          {t('template')}
        </a>
      </p>
      <fieldset>
        <legend>{t('mode')}</legend>
        {MODES.map((m) => (
          <Choice
            key={m}
            id={`mode-${m}`}
            type="radio"
            name="mode"
            label={codeLabel(t, 'mode', m)}
            hint={t(m === 'full' ? 'modeFullHint' : 'modeDeltaHint')}
            checked={mode === m}
            onChange={(checked) => checked && setMode(m)}
          />
        ))}
      </fieldset>
      <Choice
        id="dry-run"
        type="checkbox"
        name="dry_run"
        label={t('dryRun')}
        hint={t('dryRunHint')}
        checked={dryRun}
        onChange={setDryRun}
      />
      <Choice
        id="force"
        type="checkbox"
        name="force"
        label={t('force')}
        hint={t('forceHint')}
        checked={force && mode === 'full'}
        disabled={mode !== 'full'}
        onChange={setForce}
      />
      <FormError refusal={refusal} fields={['file']} />
      <div class="actions">
        <button type="submit" aria-disabled={busy ? 'true' : undefined}>
          {t('send')}
        </button>
      </div>
      {progress && (
        <div class="upload-progress">
          <label for="upload-progress">{t('uploadProgress')}</label>
          <progress
            id="upload-progress"
            data-testid="upload-progress"
            max={Math.max(progress.total, 1)}
            value={progress.total > 0 ? progress.loaded : sent ? 1 : 0}
          />
          {/* the bar says it to a screen reader; the end is announced once, below */}
          {!sent && (
            <span aria-hidden="true">
              {t('uploading', {
                percent,
                loaded: formatBytes(progress.loaded, lang),
                total: formatBytes(progress.total, lang),
              })}
            </span>
          )}
          <span role="status" data-testid="upload-status">
            {sent ? t('uploaded', { size: formatBytes(progress.total, lang) }) : ''}
          </span>
        </div>
      )}
    </form>
  );
}
