/**
 * /customer (spec section 2; the side menu's "customer service"): the customer-service entry. Online support (whether
 * an operator is online, the unread replies, "chat now" to /kefuWebview), the common questions (each opens the help
 * centre's search for its topic, /helpCenterDetail3?q=; "Help centre" opens /helpCenter) and self-service shortcuts
 * (password, security, identity verification). Open to visitors: the questions and shortcuts need no account; the
 * chat asks them to log in. Going back reopens the side menu (spec section 2; the shell's useReopenOnReturn).
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Badge, Button, List } from 'antd-mobile';
import { MessageOutline, QuestionCircleOutline } from 'antd-mobile-icons';
import { useSupportState } from '../../../shared/session';
import { useAppStore } from '../../../shared/storage';
import { PageHeader } from '../../../shared/ui';
import '../support.css';

/** Topics of the common questions (titles and search words in the locale files); each opens the help centre's search. */
export const FAQ_TOPICS = ['deposit', 'withdraw', 'kyc', 'password', 'otc', 'contract'] as const;
/** Self-service shortcuts: the key of the title and the route. */
export const SELF_SERVICE = [
  { key: 'resetPassword', to: '/forget' },
  { key: 'security', to: '/accountCenter' },
  { key: 'verify', to: '/personalCenter' },
] as const;

/** The customer-service entry page. */
export default function CustomerPage() {
  const { t } = useTranslation('support');
  const navigate = useNavigate();
  const isLogin = useAppStore((s) => s.isLogin);
  const s = useSupportState();
  const online = s?.operatorsOnline ?? false;
  return (
    <div className="sup-page">
      <PageHeader title={t('title')} fallback="/" />
      <section className="sup-hero" aria-label={t('online.title')}>
        <div className="sup-hero-icon" aria-hidden>
          <MessageOutline fontSize={28} />
        </div>
        <div className="sup-hero-text">
          <h2>{t('online.title')}</h2>
          <p className={online ? 'sup-on' : ''}>
            <span className="sup-dot" aria-hidden />
            {!isLogin ? t('online.visitor') : online ? t('online.online') : t('online.offline')}
          </p>
        </div>
        <Badge content={s && s.unread > 0 ? s.unread : null} className="sup-badge">
          <Button color="primary" size="small" onClick={() => navigate('/kefuWebview')}>
            {s && s.unread > 0 ? t('online.readReplies') : t('online.chat')}
          </Button>
        </Badge>
      </section>
      <List header={t('faq.title')} className="sup-list-block">
        {FAQ_TOPICS.map((k) => (
          <List.Item key={k} prefix={<QuestionCircleOutline />} onClick={() => navigate(`/helpCenterDetail3?q=${encodeURIComponent(t(`faq.q.${k}`))}`)}>
            {t(`faq.${k}`)}
          </List.Item>
        ))}
        <List.Item onClick={() => navigate('/helpCenter')} extra={t('faq.all')}>
          {t('faq.more')}
        </List.Item>
      </List>
      <List header={t('self.title')} className="sup-list-block">
        {SELF_SERVICE.map((x) => (
          <List.Item key={x.key} onClick={() => navigate(x.to)}>
            {t(`self.${x.key}`)}
          </List.Item>
        ))}
      </List>
      <p className="sup-note">{t('offlineNote')}</p>
    </div>
  );
}
