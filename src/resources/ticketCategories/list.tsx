import { type TicketCategory, ticketCategoryBody } from '../../contract';
import { CrudPage } from '../../components/CrudPage';
import { ActiveTag, activeOptions, dateTime } from '../../components/display';

export function TicketCategoriesPage() {
  return (
    <CrudPage<TicketCategory, 'ticket-categories'>
      resource="ticket-categories"
      singular="category"
      searchPlaceholder="Search categories..."
      bulkDelete
      schema={ticketCategoryBody}
      selectFilters={[{ field: 'is_active', label: 'Status', options: activeOptions }]}
      columns={[
        { dataIndex: 'name', title: 'Name', sortable: true },
        { dataIndex: 'description', title: 'Description', width: 240, responsive: ['md'] },
        { dataIndex: 'tickets_count', title: 'Tickets' },
        { dataIndex: 'is_active', title: 'Status', render: (v: boolean) => <ActiveTag active={v} /> },
        { dataIndex: 'created_at', title: 'Created', sortable: true, render: dateTime, responsive: ['lg'] },
      ]}
    />
  );
}
