import type { z } from 'zod';
import { DEFAULT_LOCALE, isLocale, type Locale } from './constants.js';

/**
 * Texts the server sends to people (error messages, e-mail subjects), in both interface languages.
 * The console shows them as they come, so they must read well in Russian and in English.
 */
const catalog = {
  'validation.failed': {
    ru: 'Проверьте введённые данные.',
    en: 'The given data was invalid.',
  },
  'auth.failed': {
    ru: 'Неверный e-mail или пароль.',
    en: 'These credentials do not match our records.',
  },
  'auth.throttle': {
    ru: 'Слишком много попыток входа. Повторите через {seconds} с.',
    en: 'Too many login attempts. Please try again in {seconds} seconds.',
  },
  'auth.disabled': {
    ru: 'Учётная запись отключена. Обратитесь к администратору организации.',
    en: 'This account is disabled. Contact your organisation administrator.',
  },
  'http.unauthenticated': { ru: 'Требуется вход в систему.', en: 'Unauthenticated.' },
  'http.csrf': {
    ru: 'Сессия устарела. Обновите страницу и повторите действие.',
    en: 'CSRF token mismatch.',
  },
  'http.forbidden': {
    ru: 'Недостаточно прав для этого действия.',
    en: 'This action is unauthorized.',
  },
  'http.not_found': { ru: 'Не найдено.', en: 'Not found.' },
  'http.too_many': {
    ru: 'Слишком много запросов. Повторите через {seconds} с.',
    en: 'Too many requests. Please try again in {seconds} seconds.',
  },
  'http.bad_request': { ru: 'Некорректный запрос.', en: 'Bad request.' },
  'http.bad_url': {
    ru: 'Некорректный адрес запроса.',
    en: 'The address of the request is not valid.',
  },
  'http.url_too_long': {
    ru: 'Слишком длинный адрес запроса.',
    en: 'The address of the request is too long.',
  },
  'http.headers_too_large': {
    ru: 'Слишком большие заголовки запроса.',
    en: 'The headers of the request are too large.',
  },
  'http.request_timeout': {
    ru: 'Запрос не был получен полностью вовремя.',
    en: 'The request did not arrive in time.',
  },
  'http.bad_json': {
    ru: 'Тело запроса не является корректным JSON.',
    en: 'The request body is not valid JSON.',
  },
  'http.payload_too_large': { ru: 'Слишком большой запрос.', en: 'The request is too large.' },
  'http.unsupported_media': {
    ru: 'Неподдерживаемый тип содержимого.',
    en: 'Unsupported content type.',
  },
  'http.server_error': {
    ru: 'Внутренняя ошибка сервера. Повторите попытку позже.',
    en: 'Server error. Please try again later.',
  },
  'http.unavailable': {
    ru: 'Сервис временно недоступен. Повторите попытку позже.',
    en: 'The service is temporarily unavailable. Please try again later.',
  },
  'http.database_unavailable': {
    ru: 'Нет связи с базой данных. Повторите попытку через несколько секунд.',
    en: 'The database is not answering. Please try again in a few seconds.',
  },
  'http.storage_full': {
    ru: 'На сервере закончилось место на диске: данные не сохранены. Сообщите администратору.',
    en: 'The server has run out of disk space; nothing was saved. Please tell your administrator.',
  },
  'http.storage_read_only': {
    ru: 'Хранилище сервера доступно только для чтения: данные не сохранены. Сообщите администратору.',
    en: "The server's storage is read-only; nothing was saved. Please tell your administrator.",
  },
  'passwords.sent': {
    ru: 'Если этот адрес зарегистрирован, мы отправили на него ссылку для сброса пароля.',
    en: 'If that address is registered, we have e-mailed a password reset link to it.',
  },
  'passwords.reset': { ru: 'Пароль изменён.', en: 'Your password has been reset.' },
  'passwords.token': {
    ru: 'Ссылка для сброса пароля недействительна или устарела.',
    en: 'This password reset link is invalid or has expired.',
  },
  'passwords.current': {
    ru: 'Текущий пароль указан неверно.',
    en: 'The provided password does not match your current password.',
  },
  'passwords.updated': { ru: 'Пароль изменён.', en: 'Your password has been updated.' },
  'passwords.confirmed': {
    ru: 'Пароли не совпадают.',
    en: 'The password confirmation does not match.',
  },
  'passwords.common': {
    ru: 'Этот пароль слишком распространён — выберите другой.',
    en: 'This password is too common; choose another.',
  },
  'email.taken': { ru: 'Этот e-mail уже занят.', en: 'The e-mail has already been taken.' },
  'verification.sent': {
    ru: 'Мы отправили новое письмо со ссылкой для подтверждения e-mail.',
    en: 'A new verification link has been sent to your e-mail address.',
  },
  'verification.already': {
    ru: 'E-mail уже подтверждён.',
    en: 'Your e-mail address is already verified.',
  },
  'verification.invalid': {
    ru: 'Ссылка для подтверждения недействительна или устарела.',
    en: 'This verification link is invalid or has expired.',
  },
  'profile.updated': { ru: 'Профиль сохранён.', en: 'Your profile has been updated.' },
  'users.self_role': {
    ru: 'Свою роль изменить нельзя: попросите другого администратора.',
    en: 'You cannot change your own role: ask another administrator.',
  },
  'users.self_acl_role': {
    ru: 'Свою роль доступа изменить нельзя: попросите другого администратора.',
    en: 'You cannot change your own access role: ask another administrator.',
  },
  'users.self_disable': {
    ru: 'Нельзя отключить собственную учётную запись.',
    en: 'You cannot disable your own account.',
  },
  'users.self_delete': {
    ru: 'Нельзя удалить собственную учётную запись.',
    en: 'You cannot delete your own account.',
  },
  'users.last_admin': {
    ru: 'В организации должен остаться хотя бы один активный администратор.',
    en: 'The organisation must keep at least one active administrator.',
  },
  'users.invitation_accepted': {
    ru: 'Пользователь уже задал пароль: приглашение не нужно.',
    en: 'This user has already set a password: no invitation is needed.',
  },
  'users.invitation_disabled': {
    ru: 'Пользователь отключён: сначала включите его.',
    en: 'This user is disabled: enable them first.',
  },
  'users.verify_first': {
    ru: 'Сначала подтвердите свой e-mail: приглашения отправляют только пользователи с подтверждённым адресом. Откройте ссылку из письма, которое мы прислали, или запросите письмо ещё раз.',
    en: 'Confirm your e-mail address first: only users with a confirmed address send invitations. Open the link in the e-mail we sent you, or ask for the e-mail again.',
  },
  'users.invitations_throttle': {
    ru: 'Ваша организация отправила слишком много приглашений. Следующее можно отправить через {minutes} мин.',
    en: 'Your organisation has sent too many invitations. You can send the next one in {minutes} min.',
  },
  'field.name_link': {
    ru: 'Имя не может содержать ссылку или адрес сайта.',
    en: 'A name cannot contain a link or a web address.',
  },
  'field.name_email': {
    ru: 'Имя не может содержать адрес электронной почты.',
    en: 'A name cannot contain an e-mail address.',
  },
  'field.name_control': {
    ru: 'Имя содержит невидимые или управляющие символы (перевод строки, табуляцию, смену направления текста): уберите их.',
    en: 'The name contains invisible or control characters (line breaks, tabs, text direction overrides): remove them.',
  },
  'acl.role_name_taken': {
    ru: 'Роль доступа с таким названием уже есть.',
    en: 'An access role with this name already exists.',
  },
  'acl.role_in_use': {
    ru: 'Роль назначена пользователям ({count}): сначала назначьте им другую роль.',
    en: 'Users hold this role ({count}): give them another role first.',
  },
  'acl.admin_role_delete': {
    ru: 'Роль администратора организации удалить нельзя.',
    en: "The organisation's administrator role cannot be deleted.",
  },
  'acl.admin_role_modules': {
    ru: 'Роль администратора всегда включает все модули: изменить их нельзя.',
    en: 'The administrator role always holds every module: they cannot be changed.',
  },
  'filter.field': {
    ru: 'Фильтр по этому полю недоступен.',
    en: 'Filtering by this field is not allowed.',
  },
  'filter.operator': {
    ru: 'Этот оператор недоступен для поля.',
    en: 'This operator is not allowed for this field.',
  },
  'filter.value': { ru: 'Неверное значение фильтра.', en: 'The filter value is invalid.' },
  'field.required': { ru: 'Обязательное поле.', en: 'This field is required.' },
  'field.string_min': {
    ru: 'Не короче {min} символов.',
    en: 'Must be at least {min} characters.',
  },
  'field.string_max': {
    ru: 'Не длиннее {max} символов.',
    en: 'Must not be longer than {max} characters.',
  },
  'field.number_min': { ru: 'Не меньше {min}.', en: 'Must be at least {min}.' },
  'field.number_max': { ru: 'Не больше {max}.', en: 'Must not be greater than {max}.' },
  'field.array_min': {
    ru: 'Выберите не меньше {min} элементов.',
    en: 'Choose at least {min} items.',
  },
  'field.array_max': {
    ru: 'Не больше {max} элементов.',
    en: 'Must not have more than {max} items.',
  },
  'field.email': { ru: 'Введите корректный e-mail.', en: 'Enter a valid e-mail address.' },
  'field.type': { ru: 'Неверный тип значения.', en: 'The value has the wrong type.' },
  'field.integer': { ru: 'Введите целое число.', en: 'Must be a whole number.' },
  'field.enum': { ru: 'Допустимые значения: {values}.', en: 'Must be one of: {values}.' },
  'field.format': { ru: 'Неверный формат.', en: 'The format is invalid.' },
  'field.unknown_key': { ru: 'Неизвестное поле.', en: 'Unknown field.' },
  'field.invalid': { ru: 'Недопустимое значение.', en: 'The value is invalid.' },
  'field.time_of_day': { ru: 'Время в формате ЧЧ:ММ, например 09:30.', en: 'Use HH:MM, for example 09:30.' },
  'field.time_zone': {
    ru: 'Укажите часовой пояс IANA, например Europe/Moscow.',
    en: 'Enter an IANA time zone, for example Europe/Moscow.',
  },
  'field.work_time_equal': {
    ru: 'Время закрытия не может совпадать со временем открытия.',
    en: 'Closing time must differ from opening time.',
  },
  'field.quiet_hours_equal': {
    ru: 'Начало и конец тихих часов не должны совпадать.',
    en: 'Quiet hours must start and end at different times.',
  },
  'complaint.subject_required': {
    ru: 'Укажите оборудование или адрес.',
    en: 'Choose a device or an address.',
  },
  'complaint.event_empty': {
    ru: 'Напишите комментарий, приложите фото или измените статус.',
    en: 'Write a comment, attach a photo or change the status.',
  },
  'complaint.device_address': {
    ru: 'Это оборудование стоит по другому адресу.',
    en: 'This device is at another address.',
  },
  'complaint.assignee': {
    ru: 'Этому пользователю нельзя назначить жалобу: у него нет доступа к жалобам или он отключён.',
    en: 'This user cannot take complaints: they have no access to complaints or are disabled.',
  },
  'complaint.photo': {
    ru: 'Фото не найдено: загрузите его ещё раз.',
    en: 'The photo was not found: upload it again.',
  },
  'complaint.transition': {
    ru: 'Жалобу нельзя перевести из статуса «{from}» в статус «{to}».',
    en: 'A complaint cannot go from “{from}” to “{to}”.',
  },
  'complaint.closed': {
    ru: 'Жалоба закрыта: к ней можно только добавить комментарий.',
    en: 'The complaint is closed: only comments can be added.',
  },
  'complaint.status.new': { ru: 'Новая', en: 'New' },
  'complaint.status.in_progress': { ru: 'В работе', en: 'In progress' },
  'complaint.status.resolved': { ru: 'Решена', en: 'Resolved' },
  'complaint.status.closed': { ru: 'Закрыта', en: 'Closed' },
  'complaint.priority.low': { ru: 'низкий', en: 'low' },
  'complaint.priority.normal': { ru: 'обычный', en: 'normal' },
  'complaint.priority.high': { ru: 'высокий', en: 'high' },
  'complaint.priority.urgent': { ru: 'срочный', en: 'urgent' },
  'complaint.notify.created': { ru: 'Новая жалоба: {title}', en: 'New complaint: {title}' },
  'complaint.notify.assigned_to_you': {
    ru: 'Вам назначена жалоба: {title}',
    en: 'A complaint was assigned to you: {title}',
  },
  'complaint.notify.comment': {
    ru: 'Комментарий к жалобе: {title}',
    en: 'New comment on a complaint: {title}',
  },
  'complaint.notify.status': { ru: 'Жалоба «{title}»: {status}', en: 'Complaint “{title}”: {status}' },
  'complaint.notify.assignee': {
    ru: 'Жалоба «{title}» назначена: {name}',
    en: 'Complaint “{title}” assigned to {name}',
  },
  'complaint.notify.unassigned': {
    ru: 'У жалобы «{title}» больше нет исполнителя',
    en: 'Complaint “{title}” has no assignee now',
  },
  'complaint.notify.created_body': {
    ru: '{subject} · приоритет: {priority} · автор: {author}',
    en: '{subject} · priority: {priority} · filed by {author}',
  },
  'complaint.notify.comment_body': { ru: '{author}: {text}', en: '{author}: {text}' },
  'complaint.notify.photos': { ru: 'фото: {count}', en: 'photos: {count}' },
  'complaint.notify.status_body': { ru: '{author}: «{from}» → «{to}»', en: '{author}: “{from}” → “{to}”' },
  'complaint.notify.changed_by': { ru: 'Автор изменения: {author}', en: 'Changed by {author}' },
  'field.coordinates_pair': {
    ru: 'Укажите и широту, и долготу или оставьте оба поля пустыми.',
    en: 'Enter both latitude and longitude, or leave both empty.',
  },
  'field.date': { ru: 'Дата в формате ГГГГ-ММ-ДД.', en: 'Use a date as YYYY-MM-DD.' },
  'field.controller_id': {
    ru: 'Только латинские буквы, цифры и символы _ - . : (до 64 знаков).',
    en: 'Only Latin letters, digits and _ - . : (up to 64 characters).',
  },
  'field.sort': { ru: 'По этому полю нельзя сортировать.', en: 'This field cannot be sorted on.' },
  'field.exists': { ru: 'Выбранное значение не найдено.', en: 'The selected value does not exist.' },
  'field.inn': {
    ru: 'ИНН — 10 цифр для организации или 12 для ИП; контрольная цифра не сходится.',
    en: 'The INN must have 10 digits (company) or 12 (entrepreneur) with valid check digits.',
  },
  'field.kpp': {
    ru: 'КПП — 9 символов: 4 цифры, 2 цифры или заглавные латинские буквы, 3 цифры (например, 773601001).',
    en: 'The KPP must have 9 characters: 4 digits, 2 digits or capital Latin letters, 3 digits (for example 773601001).',
  },
  'field.kpp_for_entrepreneur': {
    ru: 'У ИП нет КПП: оставьте поле пустым.',
    en: 'An individual entrepreneur has no KPP: leave this field empty.',
  },
  'field.ogrn': {
    ru: 'ОГРН организации — 13 цифр; контрольная цифра не сходится.',
    en: 'The OGRN of a company must have 13 digits with a valid check digit.',
  },
  'field.ogrnip': {
    ru: 'ОГРНИП — 15 цифр; контрольная цифра не сходится.',
    en: 'The OGRNIP of an entrepreneur must have 15 digits with a valid check digit.',
  },
  'field.bik': {
    ru: 'БИК — 9 цифр, начинается с 04.',
    en: 'The BIK must have 9 digits and start with 04.',
  },
  'field.correspondent_account': {
    ru: 'Корреспондентский счёт — 20 цифр, начинается с 301 и должен соответствовать БИК.',
    en: 'The correspondent account must have 20 digits, start with 301 and match the BIK.',
  },
  'field.settlement_account': {
    ru: 'Расчётный счёт — 20 цифр и должен соответствовать БИК банка.',
    en: 'The settlement account must have 20 digits and match the bank’s BIK.',
  },
  'billing.amount_range': {
    ru: 'Сумма — от {min} до {max} ₽.',
    en: 'The amount must be from {min} to {max} ₽.',
  },
  'billing.online_payment_off': {
    ru: 'Онлайн-оплата не подключена. Пополните баланс по счёту: выставьте счёт и оплатите его банковским переводом.',
    en: 'Online payment is not available. Top up by invoice: issue an invoice and pay it by bank transfer.',
  },
  'billing.period_format': {
    ru: 'Месяц в формате ГГГГ-ММ, например 2026-10.',
    en: 'Use a month as YYYY-MM, for example 2026-10.',
  },
  'billing.details_missing': {
    ru: 'Сначала заполните реквизиты организации на вкладке «Организация».',
    en: 'Fill in the organisation’s details on the Organisation tab first.',
  },
  'billing.period_not_ended': {
    ru: 'Акт составляется за месяц, который уже закончился.',
    en: 'An act can only be made for a month that has ended.',
  },
  'billing.period_empty': {
    ru: 'За этот месяц не было начислений — акт составлять не за что.',
    en: 'Nothing was charged in this month, so there is no act to make.',
  },
  'billing.csv.date': { ru: 'Дата', en: 'Date' },
  'billing.csv.kind': { ru: 'Операция', en: 'Operation' },
  'billing.csv.description': { ru: 'Описание', en: 'Description' },
  'billing.csv.amount': { ru: 'Сумма, ₽', en: 'Amount, ₽' },
  'billing.csv.balance_after': { ru: 'Баланс после, ₽', en: 'Balance after, ₽' },
  'billing.csv.test_money': { ru: 'Тестовые деньги', en: 'Test money' },
  'billing.csv.yes': { ru: 'да', en: 'yes' },
  // Downloads (docs/telemetry.md, "Downloads"): headers with their units, and the words of values.
  'export.device_id': { ru: '№ устройства', en: 'Device ID' },
  'export.device': { ru: 'Устройство', en: 'Device' },
  'export.time': { ru: 'Время', en: 'Time' },
  'export.utc_offset': { ru: 'Смещение от UTC', en: 'UTC offset' },
  'export.current': { ru: 'Ток, А', en: 'Current, A' },
  'export.temperature': { ru: 'Температура, °C', en: 'Temperature, °C' },
  'export.door_open': { ru: 'Дверь открыта', en: 'Door open' },
  'export.state': { ru: 'Состояние', en: 'State' },
  'export.program': { ru: 'Программа', en: 'Program' },
  'export.error_code': { ru: 'Код ошибки', en: 'Error code' },
  'export.core_temperature': { ru: 'Температура в сердцевине, °C', en: 'Core temperature, °C' },
  'export.humidity': { ru: 'Влажность, %', en: 'Humidity, %' },
  'export.samples': { ru: 'Замеров', en: 'Samples' },
  'export.current_mean': { ru: 'Ток средний, А', en: 'Current mean, A' },
  'export.current_min': { ru: 'Ток минимальный, А', en: 'Current min, A' },
  'export.current_max': { ru: 'Ток максимальный, А', en: 'Current max, A' },
  'export.temperature_mean': { ru: 'Температура средняя, °C', en: 'Temperature mean, °C' },
  'export.temperature_min': { ru: 'Температура минимальная, °C', en: 'Temperature min, °C' },
  'export.temperature_max': { ru: 'Температура максимальная, °C', en: 'Temperature max, °C' },
  'export.working_share': { ru: 'В работе, %', en: 'Working, %' },
  'export.door_open_share': { ru: 'Дверь открыта, %', en: 'Door open, %' },
  'export.severity': { ru: 'Важность', en: 'Severity' },
  'export.kind': { ru: 'Вид', en: 'Kind' },
  'export.title': { ru: 'Заголовок', en: 'Title' },
  'export.text': { ru: 'Текст', en: 'Text' },
  'export.read': { ru: 'Прочитано', en: 'Read' },
  'export.read_at': { ru: 'Время прочтения', en: 'Read at' },
  'export.notifications_sheet': { ru: 'Уведомления', en: 'Notifications' },
  'export.yes': { ru: 'да', en: 'yes' },
  'export.no': { ru: 'нет', en: 'no' },
  'severity.info': { ru: 'Информация', en: 'Information' },
  'severity.warning': { ru: 'Предупреждение', en: 'Warning' },
  'severity.critical': { ru: 'Авария', en: 'Critical' },
  'notification.kind.manual': { ru: 'Записано вручную', en: 'Written by hand' },
  'notification.kind.request': { ru: 'Жалобы', en: 'Complaints' },
  'notification.kind.device_limit': {
    ru: 'Устройство отправляет больше лимита',
    en: 'A device sends more than its limit',
  },
  'billing.kind.payment': { ru: 'Платёж', en: 'Payment' },
  'billing.entry.charge': {
    ru: 'Абонентская плата за {date}: {count} устр. × {price} ₽',
    en: 'Subscription for {date}: {count} devices × {price} ₽',
  },
  'billing.entry.online_payment': { ru: 'Оплата онлайн, платёж № {id}', en: 'Online payment No. {id}' },
  'billing.entry.invoice_payment': {
    ru: 'Оплата по счёту № {number}',
    en: 'Payment of invoice No. {number}',
  },
  'billing.kind.charge': { ru: 'Списание', en: 'Charge' },
  'billing.kind.correction': { ru: 'Корректировка', en: 'Correction' },
  'billing.kind.refund': { ru: 'Возврат', en: 'Refund' },
  'address.has_rooms': {
    ru: 'Нельзя удалить адрес, пока в нём есть помещения или оборудование. Сначала перенесите или удалите их.',
    en: 'This address still has rooms or equipment. Move or delete them first.',
  },
  'room.has_devices': {
    ru: 'Нельзя удалить помещение, пока в нём есть оборудование. Сначала перенесите или удалите его.',
    en: 'This room still has equipment. Move or delete it first.',
  },
  'device.controller_taken': {
    ru: 'Контроллер с таким идентификатором уже подключён к другому устройству.',
    en: 'This controller id is already used by another device.',
  },
  'device.credential_not_smart': {
    ru: 'Ключ подключения выдаётся только умному устройству: укажите идентификатор контроллера или шаблон тока.',
    en: 'Only a smart device gets a gateway credential: set a controller id or a current template.',
  },
  'image.type': {
    ru: 'Загрузите изображение JPEG, PNG или WebP.',
    en: 'Upload a JPEG, PNG or WebP image.',
  },
  'image.too_large': {
    ru: 'Изображение больше {max} МБ.',
    en: 'The image is larger than {max} MB.',
  },
  'image.dimensions': {
    ru: 'Изображение слишком большое: не больше {side} × {side} пикселей и {megapixels} мегапикселей.',
    en: 'The image is too large: at most {side} × {side} pixels and {megapixels} megapixels.',
  },
  'field.moment': {
    ru: 'Время: ISO 8601 с часовым поясом или миллисекунды с 1970 года.',
    en: 'Use ISO 8601 with a zone, or epoch milliseconds.',
  },
  'field.range': {
    ru: 'Конец периода должен быть позже начала, период — не длиннее {days} дн.',
    en: 'The end must be after the start, and the period at most {days} days.',
  },
  'mqtt.broker_unavailable': {
    ru: 'MQTT-брокер не ответил, изменения не сохранены. Повторите попытку позже.',
    en: 'The MQTT broker did not answer; nothing was changed. Please try again later.',
  },
  'telemetry.ts_invalid': {
    ru: 'Время: число миллисекунд с 1970 года или ISO 8601 с часовым поясом, не раньше 2000 года.',
    en: 'Use epoch milliseconds or ISO 8601 with a zone, not before 2000.',
  },
  'telemetry.too_old': {
    ru: 'Образец старше срока хранения телеметрии.',
    en: 'The sample is older than telemetry is kept.',
  },
  'telemetry.in_future': {
    ru: 'Время образца больше чем на 5 минут впереди часов сервера.',
    en: 'The sample is more than 5 minutes ahead of the server clock.',
  },
  'telemetry.not_reported': {
    ru: 'Обязательно для этого типа оборудования.',
    en: 'Required for this type of device.',
  },
  'device_limit.connections': {
    ru: 'Слишком много соединений с этим ключом устройства одновременно (не больше {max}). Повторите через {seconds} с.',
    en: 'Too many connections with this device credential at once (at most {max}). Try again in {seconds} s.',
  },
  'device_limit.in_flight': {
    ru: 'Слишком много сообщений этого устройства записывается одновременно (не больше {max}). Повторите через {seconds} с.',
    en: 'Too many messages of this device are being stored at once (at most {max}). Try again in {seconds} s.',
  },
  'device_limit.rate': {
    ru: 'Устройство отправляет больше {rate} показаний в секунду в среднем (разом — до {burst}). Повторите через {seconds} с.',
    en: 'The device sends more than {rate} samples per second on average (at most {burst} at once). Try again in {seconds} s.',
  },
  'device_limit.day': {
    ru: 'Устройство уже отправило {max} показаний за сутки (UTC) — это его дневной лимит. Повторите через {seconds} с.',
    en: 'The device has sent its {max} samples for the day (UTC), its daily limit. Try again in {seconds} s.',
  },
  'device_limit.reason.connections': {
    ru: 'больше {max} соединений одновременно',
    en: 'more than {max} connections at once',
  },
  'device_limit.reason.in_flight': {
    ru: 'больше {max} сообщений одновременно',
    en: 'more than {max} messages at once',
  },
  'device_limit.reason.rate': {
    ru: 'больше {rate} показаний в секунду',
    en: 'more than {rate} samples per second',
  },
  'device_limit.reason.day': { ru: 'больше {max} показаний за сутки', en: 'more than {max} samples a day' },
  'device_limit.reason.packet_size': { ru: 'сообщения больше {mb} МБ', en: 'messages over {mb} MB' },
  'notification.device_limit_title': {
    ru: 'Устройство превышает лимит',
    en: 'The device sends more than its limit',
  },
  'notification.device_limit_body': {
    ru: '{device}: {reason}. Сообщения сверх лимита не принимаются — проверьте настройки и прошивку контроллера.',
    en: "{device}: {reason}. Messages over the limit are not accepted; check the controller's settings and firmware.",
  },
  'field.band': {
    ru: 'Верхняя граница не может быть меньше нижней.',
    en: 'The upper bound cannot be below the lower one.',
  },
  'field.rule_key': {
    ru: 'Ключ правила: латинские строчные буквы, цифры, _ и - (до 32 знаков).',
    en: 'A rule key: lower-case Latin letters, digits, _ and - (up to 32 characters).',
  },
  'field.rule_key_taken': {
    ru: 'Ключи правил в шаблоне не должны повторяться.',
    en: 'Rule keys must differ within a template.',
  },
  'field.after_start': {
    ru: 'Конец не может быть раньше начала.',
    en: 'The end cannot be before the start.',
  },
  'template.device_type': {
    ru: 'Оборудование другого типа: шаблон описывает ток только своего типа.',
    en: 'This equipment is of another type: a template describes the current of its own type only.',
  },
  'template.device_only': {
    ru: 'Шаблон настроен для одного устройства и не может быть назначен другим.',
    en: 'This template is tuned for one device and cannot be given to others.',
  },
  'template.rule_needs_band': {
    ru: 'Для этого состояния в норме не задан диапазон тока.',
    en: 'The norm has no band of current for this state.',
  },
  'event.rule_closed_by_rule': {
    ru: 'Событие правила закрывается само, когда условие перестаёт выполняться.',
    en: 'A rule’s event closes by itself when its condition clears.',
  },
  'event.kind.current_above': { ru: 'Ток выше нормы', en: 'Current above the norm' },
  'event.kind.current_below': { ru: 'Ток ниже нормы', en: 'Current below the norm' },
  'event.kind.no_data': { ru: 'Нет данных', en: 'No data' },
  'event.kind.state_too_long': { ru: 'Состояние длится слишком долго', en: 'State lasts too long' },
  'event.kind.error_code': { ru: 'Код ошибки', en: 'Error code' },
  'event.kind.door_open_while_heating': { ru: 'Дверь открыта при нагреве', en: 'Door open while heating' },
  'event.kind.manual': { ru: 'Событие', en: 'Event' },
  'event.detail.band': {
    ru: '{state}: {value} А при норме {min}–{max} А',
    en: '{state}: {value} A against a norm of {min}–{max} A',
  },
  'event.detail.no_band': { ru: '{state}: {value} А', en: '{state}: {value} A' },
  'event.detail.no_data': { ru: 'Нет данных {minutes} мин', en: 'No data for {minutes} min' },
  'event.detail.state': { ru: '{state} дольше {minutes} мин', en: '{state} for over {minutes} min' },
  'event.detail.error_code': { ru: 'Код {code}', en: 'Code {code}' },
  'event.detail.door': { ru: 'Дверь открыта при нагреве', en: 'The door was open while heating' },
  'state.off': { ru: 'выключено', en: 'off' },
  'state.idle': { ru: 'ожидание', en: 'idle' },
  'state.heating': { ru: 'нагрев', en: 'heating' },
  'state.cooking': { ru: 'готовка', en: 'cooking' },
  'state.washing': { ru: 'мойка', en: 'washing' },
  'state.fault': { ru: 'неисправность', en: 'fault' },
  'notification.event_body': { ru: '{device}: {detail}', en: '{device}: {detail}' },
  'recipe.type_takes_no_recipes': {
    ru: 'Этот тип оборудования не работает с рецептами.',
    en: 'This type of equipment takes no recipes.',
  },
  'recipe.mode': {
    ru: 'Этот режим недоступен для этого типа оборудования (доступны: {modes}).',
    en: 'This mode is not available on this type of equipment (available: {modes}).',
  },
  'recipe.temperature': {
    ru: 'В этом режиме температура от {min} до {max} °C.',
    en: 'In this mode the temperature must be from {min} to {max} °C.',
  },
  'recipe.humidity': {
    ru: 'В этом режиме влажность не задаётся: оставьте поле пустым.',
    en: 'Humidity is not set in this mode: leave it empty.',
  },
  'recipe.fan_speed': {
    ru: 'В этом режиме нет вентилятора: оставьте скорость пустой.',
    en: 'This mode has no fan: leave the fan speed empty.',
  },
  'recipe.step_end': {
    ru: 'Укажите что-то одно: длительность шага или температуру в толще продукта.',
    en: 'Set exactly one of the step duration and the core temperature.',
  },
  'recipe.core_probe': {
    ru: 'У этого оборудования нет щупа: шаг заканчивается только по времени.',
    en: 'This equipment has no core probe: a step can only end after a time.',
  },
  'recipe.image': {
    ru: 'Изображение не найдено: загрузите его ещё раз.',
    en: 'The image was not found: upload it again.',
  },
  'recipe.set_type': {
    ru: 'Набор для другого типа оборудования: рецепт можно добавить только в набор своего типа.',
    en: 'A set for another type of equipment: a recipe joins only sets of its own type.',
  },
  'recipe.set_recipe_type': {
    ru: 'Рецепт для другого типа оборудования: в наборе только рецепты его типа.',
    en: 'A recipe for another type of equipment: a set holds recipes of its own type only.',
  },
  'recipe.deployed': {
    ru: 'Рецепт установлен на устройства ({count}): сначала удалите его с них.',
    en: 'The recipe is installed on devices ({count}): remove it from them first.',
  },
  'recipe.type_deployed': {
    ru: 'Рецепт установлен на устройства ({count}): тип оборудования изменить нельзя.',
    en: 'The recipe is installed on devices ({count}): its type of equipment cannot change.',
  },
  'recipe.set_type_held': {
    ru: 'Набор установлен на устройства ({count}): тип оборудования изменить нельзя.',
    en: 'The set is installed on devices ({count}): its type of equipment cannot change.',
  },
  'recipe.copy_name': { ru: '{name} (копия)', en: '{name} (copy)' },
  'deploy.no_controller': {
    ru: 'У оборудования нет контроллера: рецепты загружаются только на умное оборудование с идентификатором контроллера.',
    en: 'This equipment has no controller: recipes go only to smart equipment with a controller id.',
  },
  'deploy.type_mismatch': {
    ru: 'Рецепты для другого типа оборудования.',
    en: 'These recipes are for another type of equipment.',
  },
  'deploy.capacity': {
    ru: 'Оборудование хранит не больше {max} программ.',
    en: 'This equipment holds at most {max} programs.',
  },
  'deploy.one_device': {
    ru: 'Выберите программы одного устройства.',
    en: 'Choose programs of one device.',
  },
  'deploy.outdated': {
    ru: 'Рецепт изменился после загрузки на устройство: загрузите его снова, чтобы получить файл.',
    en: 'The recipe has changed since it was deployed: deploy it again to get its file.',
  },
  'image.missing': { ru: 'Выберите файл изображения.', en: 'Choose an image file.' },
  'integration.telegram_not_configured': {
    ru: 'На сервере не настроен бот Telegram (TELEGRAM_BOT_TOKEN), поэтому интеграцию с Telegram создать нельзя.',
    en: 'This server has no Telegram bot configured (TELEGRAM_BOT_TOKEN), so a Telegram integration cannot be created.',
  },
  'integration.user': {
    ru: 'Выберите активного пользователя вашей организации.',
    en: 'Choose an active user of your organisation.',
  },
  'telegram.bound': {
    ru: 'Готово! Уведомления Kontrol для пользователя {user} ({organisation}) будут приходить в этот чат.',
    en: 'Done! Kontrol notifications for {user} ({organisation}) will come to this chat.',
  },
  'telegram.already_bound': {
    ru: 'Этот чат уже подключён: уведомления Kontrol для пользователя {user} приходят сюда.',
    en: 'This chat is already connected: Kontrol notifications for {user} come here.',
  },
  'telegram.link_invalid': {
    ru: 'Эта ссылка больше не действует: она уже использована или устарела. Создайте новую интеграцию с Telegram в настройках Kontrol и откройте её ссылку.',
    en: 'This link is no longer valid: it has been used or has expired. Create a new Telegram integration in the Kontrol settings and open its link.',
  },
  'telegram.group_admin_only': {
    ru: 'Подключить группу к Kontrol может только её администратор: попросите администратора группы открыть ссылку.',
    en: 'Only an administrator of this group can connect it to Kontrol: ask a group administrator to open the link.',
  },
  'telegram.help': {
    ru: 'Это бот Kontrol: он присылает уведомления о вашем оборудовании и жалобах. Чтобы подключить чат, создайте интеграцию с Telegram в настройках Kontrol и откройте её ссылку.',
    en: 'This is the Kontrol bot: it sends notifications about your equipment and complaints. To connect a chat, create a Telegram integration in the Kontrol settings and open its link.',
  },
} as const satisfies Record<string, Record<Locale, string>>;

export type MessageKey = keyof typeof catalog;
export type MessageParams = Record<string, string | number>;

/** The text of `key` in `locale`, with `{name}` placeholders filled from `params`. */
export function translate(locale: Locale, key: MessageKey, params: MessageParams = {}): string {
  const template: string = catalog[key][locale];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/**
 * The interface language a request prefers: the first of ru/en in `Accept-Language` by quality,
 * otherwise Russian, the product's default.
 */
export function pickLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.find((p) => p.trim().startsWith('q='));
      return { lang: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.split('=')[1]) : 1, index };
    })
    .filter((entry) => Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked.find((entry) => isLocale(entry.lang))?.lang as Locale | undefined) ?? DEFAULT_LOCALE;
}

/**
 * A field message a person understands, from a zod issue. Schemas attach `params: {key}` to a
 * custom check to name a catalog message; everything else is mapped from the issue's code.
 */
export function formatIssue(issue: z.core.$ZodIssue, locale: Locale): string {
  const t = (key: MessageKey, params?: MessageParams) => translate(locale, key, params);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return t('field.required');
      if (issue.expected === 'int') return t('field.integer');
      return t('field.type');
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? t('field.required') : t('field.string_min', { min });
      if (issue.origin === 'array' || issue.origin === 'set') return t('field.array_min', { min });
      return t('field.number_min', { min });
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return t('field.string_max', { max });
      if (issue.origin === 'array' || issue.origin === 'set') return t('field.array_max', { max });
      return t('field.number_max', { max });
    }
    case 'invalid_format':
      return issue.format === 'email' ? t('field.email') : t('field.format');
    case 'invalid_value':
      return t('field.enum', { values: issue.values.map(String).join(', ') });
    case 'unrecognized_keys':
      return t('field.unknown_key');
    case 'custom': {
      const { key, ...params } = (issue.params ?? {}) as Record<string, unknown>;
      return typeof key === 'string' && key in catalog
        ? t(key as MessageKey, localParams(params, locale))
        : t('field.invalid');
    }
    default:
      return t('field.invalid');
  }
}

/**
 * A custom check's placeholder values as the reader writes them: numbers with the language's
 * separators (`1 000 000`, `1,000,000`), at most two decimals; text as it is.
 */
function localParams(params: Record<string, unknown>, locale: Locale): MessageParams {
  const numbers = new Intl.NumberFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', { maximumFractionDigits: 2 });
  const values: MessageParams = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'number') values[name] = numbers.format(value);
    else if (typeof value === 'string') values[name] = value;
  }
  return values;
}

/** Laravel's `errors` object: dotted field path → messages. */
export function issuesToFieldErrors(
  issues: readonly z.core.$ZodIssue[],
  locale: Locale,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const paths =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) {
      const field = path.map(String).join('.') || '_';
      (errors[field] ??= []).push(formatIssue(issue, locale));
    }
  }
  return errors;
}
