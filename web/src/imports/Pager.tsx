import { Button } from 'primereact/button';
import { useTranslation } from 'react-i18next';

/** Previous / "Page n of m" / next; nothing when everything fits on one page. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (p: number) => void }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <div className="tm-import-pager">
      <Button label={t('import.prev')} text disabled={page <= 1} onClick={() => onPage(page - 1)} />
      <span>{t('import.page', { page, pages })}</span>
      <Button label={t('import.next')} text disabled={page >= pages} onClick={() => onPage(page + 1)} />
    </div>
  );
}
