/** Renders a legal text of the 'legal' namespace: numbered sections with a title and a body. */
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui';

/** Date the legal texts were last changed. */
export const LEGAL_UPDATED = '2025-01-01';

/** The document `doc` ('agreement' or 'privacy'). */
export function LegalDoc({ doc }: { doc: 'agreement' | 'privacy' }) {
  const { t, i18n } = useTranslation('legal');
  const sections: { title: string; body: string }[] = [];
  for (let i = 1; i18n.exists(`legal:${doc}.sections.${i}.title`); i++) {
    sections.push({ title: t(`${doc}.sections.${i}.title`), body: t(`${doc}.sections.${i}.body`) });
  }
  return (
    <div style={{ minHeight: '100vh', background: 'var(--ex-bg)' }}>
      <PageHeader title={t(`${doc}.title`)} />
      <article style={{ padding: '12px 18px 40px' }}>
        <h2 style={{ fontSize: 20, margin: '8px 0 4px' }}>{t(`${doc}.title`)}</h2>
        <div className="text-3" style={{ fontSize: 12, marginBottom: 16 }}>
          {t('updated', { date: LEGAL_UPDATED })}
        </div>
        {sections.map((s, i) => (
          <section key={i} style={{ marginBottom: 16 }}>
            <h3 style={{ fontSize: 15, margin: '0 0 6px' }}>
              {i + 1}. {s.title}
            </h3>
            <p style={{ margin: 0, fontSize: 14, lineHeight: 1.75, color: 'var(--ex-text-2)' }}>{s.body}</p>
          </section>
        ))}
      </article>
    </div>
  );
}
