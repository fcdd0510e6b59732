import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Group } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './sortable-list.module.css';

/** The controls of one item, for its render function to place (usually in its header). */
export interface SortableControls {
  /** The drag handle: drag it, or focus it and press Space, the arrow keys and Space again. */
  handle: ReactNode;
  /** Move up and move down: the same without dragging (WCAG 2.5.7). */
  moves: ReactNode;
}

export interface SortableListProps<T> {
  items: readonly T[];
  getId: (item: T) => string;
  /** What the item is called in announcements and on its buttons, e.g. "step 2". */
  itemName: (item: T, index: number) => string;
  /** Moves the item at `from` to `to` (indices in `items`). */
  onMove: (from: number, to: number) => void;
  renderItem: (item: T, index: number, controls: SortableControls) => ReactNode;
  /** The list's accessible name. */
  label: string;
}

/**
 * A list whose items are put in order by dragging a handle (mouse, touch), by the keyboard on the
 * same handle (Space picks up, the arrow keys move, Space drops, Escape cancels; a screen reader
 * hears each move), or by move-up and move-down buttons. On @dnd-kit (sortable).
 */
export function SortableList<T>({ items, getId, itemName, onMove, renderItem, label }: SortableListProps<T>) {
  const { t } = useTranslation();
  const sensors = useSensors(
    // A few pixels of movement before a drag starts, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = useMemo(() => items.map(getId), [items, getId]);
  const nameOf = (id: UniqueIdentifier) => {
    const index = ids.indexOf(String(id));
    const item = items[index];
    return item === undefined ? '' : itemName(item, index);
  };
  const positionOf = (id: UniqueIdentifier | undefined) =>
    id === undefined ? 0 : ids.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      t('Picked up {{item}}. Use the arrow keys to move it, Space to drop it, Escape to cancel.', {
        item: nameOf(active.id),
      }),
    onDragOver: ({ active, over }) =>
      over
        ? t('{{item}} is over position {{position}} of {{count}}.', {
            item: nameOf(active.id),
            position: positionOf(over.id),
            count: ids.length,
          })
        : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? t('{{item}} was dropped at position {{position}} of {{count}}.', {
            item: nameOf(active.id),
            position: positionOf(over.id),
            count: ids.length,
          })
        : undefined,
    onDragCancel: ({ active }) => t('Moving {{item}} was cancelled.', { item: nameOf(active.id) }),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onMove(from, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: t(
            'To move an item, press Space, then the arrow keys; press Space again to drop it or Escape to cancel.',
          ),
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className={classes.list} aria-label={label}>
          {items.map((item, index) => (
            <SortableItem
              key={ids[index]}
              id={ids[index] ?? ''}
              index={index}
              count={items.length}
              name={itemName(item, index)}
              onMove={onMove}
            >
              {(controls) => renderItem(item, index, controls)}
            </SortableItem>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableItem({
  id,
  index,
  count,
  name,
  onMove,
  children,
}: {
  id: string;
  index: number;
  count: number;
  name: string;
  onMove: (from: number, to: number) => void;
  children: (controls: SortableControls) => ReactNode;
}) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id, attributes: { roleDescription: t('movable item') } });
  const handle = (
    <ActionIcon
      ref={setActivatorNodeRef}
      variant="subtle"
      color="gray"
      className={classes.handle}
      {...attributes}
      {...listeners}
      aria-label={t('Drag {{item}}', { item: name })}
    >
      <span aria-hidden="true">⠿</span>
    </ActionIcon>
  );
  const moves = (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        variant="default"
        onClick={() => onMove(index, index - 1)}
        disabled={index === 0}
        aria-label={t('Move {{item}} up', { item: name })}
      >
        <span aria-hidden="true">↑</span>
      </ActionIcon>
      <ActionIcon
        variant="default"
        onClick={() => onMove(index, index + 1)}
        disabled={index === count - 1}
        aria-label={t('Move {{item}} down', { item: name })}
      >
        <span aria-hidden="true">↓</span>
      </ActionIcon>
    </Group>
  );
  return (
    <li
      ref={setNodeRef}
      className={classes.item}
      data-dragging={isDragging || undefined}
      data-sortable-index={index}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      {children({ handle, moves })}
    </li>
  );
}
