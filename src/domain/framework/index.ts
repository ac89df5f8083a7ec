export { pythonDateText } from './framework.rules';
